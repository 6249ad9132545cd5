import { Field, Input } from "./ui";

/**
 * A new password typed twice (the form compares them before it sends, and so does
 * app/api/forms without JavaScript). `name` is the field the procedure takes; the copy is `repeat`.
 */
export function NewPasswordFields({ name, label, error, mismatch }: { name: string; label: string; error?: string; mismatch: boolean }) {
  return (
    <>
      <Field label={label} htmlFor={name} error={error} hint="At least 12 characters.">
        <Input id={name} name={name} type="password" autoComplete="new-password" required invalid={!!error} />
      </Field>
      <Field label={`Repeat the ${label.toLowerCase()}`} htmlFor="repeat" error={mismatch ? "The two passwords differ." : null}>
        <Input id="repeat" name="repeat" type="password" autoComplete="new-password" required invalid={mismatch} />
      </Field>
    </>
  );
}
