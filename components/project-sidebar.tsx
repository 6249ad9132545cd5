"use client";

import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import type { TimeZoneSetting as Zone } from "../isomorphic/time-zone";
import { FiringBadge } from "./alerts/firing-badge";
import { SearchButton } from "./palette/search-button";
import { NAV } from "./project-pages";
import { useOpenDemoProject } from "./dashboard/open-demo-project";
import { TimeZoneSetting } from "./time-zone-setting";
import { useTRPC } from "./trpc-provider";
import { Button, cx, Select } from "./ui";
import { Wordmark } from "./wordmark";

type ProjectOption = { slug: string; name: string; demo: boolean };

const NEW_PROJECT = "__new__";
const LOAD_DEMO = "__demo__";

export function ProjectSidebar({ slug, projects, email, timeZone }: { slug: string; projects: ProjectOption[]; email: string; timeZone: Zone }) {
  const pathname = usePathname();
  const router = useRouter();
  const base = `/p/${slug}`;
  const demo = useOpenDemoProject(projects.some((p) => p.demo));
  // Below the lg breakpoint the sidebar is a drawer behind a menu button in a top bar.
  const [open, setOpen] = useState(false);
  useEffect(() => setOpen(false), [pathname]);
  const menuButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!open) return;
    // Escape closes the drawer and gives the focus back to the menu button, as a menu does
    const close = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setOpen(false);
      menuButton.current?.focus();
    };
    window.addEventListener("keydown", close);
    return () => window.removeEventListener("keydown", close);
  }, [open]);

  return (
    <>
      <div className="sticky top-0 z-30 flex items-center justify-between border-b border-slate-200 bg-white px-4 py-2 lg:hidden">
        <Link href="/" className="rounded-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500">
          <Wordmark />
        </Link>
        <div className="flex items-center gap-2">
          <SearchButton />
          <Button ref={menuButton} variant="secondary" size="sm" aria-expanded={open} aria-controls="project-sidebar" onClick={() => setOpen(!open)}>
            {open ? "Close menu" : "Menu"}
            <FiringBadge slug={slug} />
          </Button>
        </div>
      </div>
      {open && <div className="fixed inset-0 z-30 bg-slate-900/30 lg:hidden" aria-hidden onClick={() => setOpen(false)} />}
      <aside
        id="project-sidebar"
        className={cx(
          "fixed inset-y-0 left-0 z-40 w-60 shrink-0 flex-col overflow-y-auto border-r border-slate-200 bg-white lg:sticky lg:top-0 lg:z-auto lg:flex lg:h-screen",
          open ? "flex" : "hidden",
        )}
      >
        <div className="px-5 pb-4 pt-5">
          <Link href="/" className="rounded-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500">
            <Wordmark />
          </Link>
        </div>
        <div className="px-3 pb-4">
          <label htmlFor="project-switcher" className="mb-1 block px-2 text-xs font-medium uppercase tracking-wide text-slate-500">
            Project
          </label>
          <Select
            id="project-switcher"
            value={slug}
            disabled={demo.busy}
            aria-describedby={demo.status ? "demo-project-status" : undefined}
            onChange={(e) => {
              if (e.target.value === LOAD_DEMO) demo.open();
              else router.push(e.target.value === NEW_PROJECT ? "/projects/new" : `/p/${e.target.value}`);
            }}
          >
            {projects.map((p) => (
              <option key={p.slug} value={p.slug}>
                {p.name}
              </option>
            ))}
            <option value={NEW_PROJECT}>+ New project…</option>
            <option value={LOAD_DEMO}>Load demo data…</option>
          </Select>
          {demo.status && (
            <p
              id="demo-project-status"
              role="status"
              data-testid="demo-project-status"
              className={cx("mt-1.5 px-2 text-xs", demo.failed ? "text-red-700" : "text-slate-500")}
            >
              {demo.status}
            </p>
          )}
        </div>
        <div className="hidden px-3 pb-3 lg:block">
          <SearchButton wide />
        </div>
        <nav aria-label="Project" className="flex-1 space-y-0.5 px-3">
          {NAV.map((item) => {
            const href = base + item.path;
            const active = item.path === "" ? pathname === base : pathname === href || pathname.startsWith(`${href}/`);
            return (
              <Link
                key={item.label}
                href={href}
                aria-current={active ? "page" : undefined}
                className={cx(
                  "flex items-center rounded-md px-2 py-1.5 font-medium focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500",
                  active ? "bg-indigo-50 text-indigo-700" : "text-slate-600 hover:bg-slate-50 hover:text-slate-900",
                )}
              >
                {item.label}
                {item.path === "/alerts" && <FiringBadge slug={slug} />}
              </Link>
            );
          })}
        </nav>
        <div className="border-t border-slate-200 px-5 py-4">
          <p className="truncate text-xs text-slate-500">Signed in as</p>
          <p className="truncate font-medium text-slate-800" title={email} data-testid="signed-in-email">
            {email}
          </p>
          <div className="mt-3 flex items-center gap-2">
            <SignOutButton />
            <Link
              href="/account/password"
              className="rounded-sm text-xs text-slate-500 hover:text-slate-800 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
            >
              Change password
            </Link>
          </div>
          <div className="mt-3">
            <TimeZoneSetting setting={timeZone} />
          </div>
        </div>
      </aside>
    </>
  );
}

function SignOutButton() {
  const trpc = useTRPC();
  // a full page load: nothing of this session stays in memory
  const signOut = useMutation(trpc.auth.signOut.mutationOptions({ onSettled: () => window.location.assign("/login") }));
  return (
    <Button variant="secondary" size="sm" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
      Sign out
    </Button>
  );
}
