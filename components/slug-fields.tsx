"use client";

import { useState } from "react";
import { slugify } from "@/contracts/accounts";
import { Field, Input } from "./ui";
import { CountedInput } from "./counted-input";
import { TEXT_LIMITS } from "../contracts/text-limits";

/** Project name + slug; the slug follows the name (slugify) until edited by hand. */
export function ProjectNameFields({
  errors,
  idPrefix = "project",
  nameKey = "name",
  slugKey = "slug",
}: {
  errors: Record<string, string>;
  idPrefix?: string;
  /** the form field names, which are also the input's keys in the server's error paths */
  nameKey?: string;
  slugKey?: string;
}) {
  const [name, setName] = useState("");
  const [slug, setSlug] = useState("");
  const [slugEdited, setSlugEdited] = useState(false);
  const shownSlug = slugEdited ? slug : name.trim() ? slugify(name) : "";

  return (
    <>
      <Field label="Project name" htmlFor={`${idPrefix}-name`} error={errors[nameKey]} hint="You can rename it later.">
        <CountedInput
          max={TEXT_LIMITS.projectName}
          id={`${idPrefix}-name`}
          name={nameKey}
          required
          placeholder="Support agents"
          value={name}
          onChange={(e) => setName(e.target.value)}
          invalid={!!errors[nameKey]}
        />
      </Field>
      <Field
        label="Slug"
        htmlFor={`${idPrefix}-slug`}
        error={errors[slugKey]}
        hint={`Used in URLs: up to ${TEXT_LIMITS.projectSlug} lower-case letters, digits and dashes. It cannot be changed later.`}
      >
        <div className="flex rounded-md shadow-sm">
          <span className="inline-flex items-center rounded-l-md bg-slate-50 px-3 text-slate-500 ring-1 ring-inset ring-slate-300">/p/</span>
          <Input
            id={`${idPrefix}-slug`}
            name={slugKey}
            required
            className="rounded-l-none shadow-none"
            placeholder="support-agents"
            value={shownSlug}
            onChange={(e) => {
              setSlugEdited(true);
              setSlug(e.target.value);
            }}
            invalid={!!errors[slugKey]}
          />
        </div>
      </Field>
    </>
  );
}
