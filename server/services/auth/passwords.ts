import { hash, verify } from "@node-rs/argon2";
import { randomBytes } from "node:crypto";

// argon2id with the library's defaults (19 MiB, 2 passes): OWASP's recommended minimum.
export const hashPassword = (password: string) => hash(password);

export async function verifyPassword(passwordHash: string, password: string) {
  return verify(passwordHash, password).catch(() => false);
}

/** A one-time password for invited accounts: 16 characters, easy to read out. */
export function oneTimePassword() {
  return randomBytes(12).toString("base64url");
}

const PASSWORD_RULE = "at least 12 characters";
export function checkPasswordStrength(password: string): string | null {
  return password.length >= 12 ? null : `The password must be ${PASSWORD_RULE}; it has ${password.length}.`;
}
