import type { ReactNode } from "react";
import { Wordmark } from "./wordmark";

/** The centred card of the pages outside a project: setup, sign-in, password, new project. */
export function AuthCard({ title, description, children, wide }: { title: string; description?: ReactNode; children: ReactNode; wide?: boolean }) {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center px-4 py-12">
      <Wordmark className="mb-6" />
      <div className={`w-full ${wide ? "max-w-lg" : "max-w-sm"} rounded-lg border border-slate-200 bg-white p-6 shadow-sm`}>
        <h1 className="text-lg font-semibold text-slate-900">{title}</h1>
        {description && <p className="mt-1 text-slate-500">{description}</p>}
        <div className="mt-5">{children}</div>
      </div>
    </main>
  );
}
