"use client";

import { useEffect, useRef, useState, type ReactNode } from "react";
import { tabClass } from "./tab-bar";

export type PageSection = { id: string; label: string; badge?: ReactNode; content: ReactNode };

/** The section a URL fragment names (`#dry-run`), else the first. */
export function sectionFromHash(hash: string, ids: readonly string[]): string {
  let id = hash.replace(/^#/, "");
  try {
    id = decodeURIComponent(id);
  } catch {
    // not valid percent-encoding: no section has that id
  }
  return ids.includes(id) ? id : ids[0]!;
}

/**
 * A long page as tabs, one section shown at a time, each linkable by its fragment (`#schema`):
 * the tabs are plain links, so the back button and a shared link land on the same section. Every
 * section stays mounted (hidden), so the state inside one — a dry run's editor — survives a switch.
 * Without JavaScript every section shows, one after the other, and the tabs jump to them (the
 * page's forms post without JavaScript too, and come back to their section).
 */
export function PageSections({ label, sections }: { label: string; sections: PageSection[] }) {
  const ids = sections.map((s) => s.id);
  const key = ids.join(" ");
  const [active, setActive] = useState(ids[0]!);
  const nav = useRef<HTMLElement>(null);

  useEffect(() => {
    const list = key.split(" ");
    const follow = (scroll: boolean) => {
      setActive(sectionFromHash(window.location.hash, list));
      // a link from further down the page (a suggestion's "Try in a dry run") lands at the tabs
      if (scroll && nav.current && nav.current.getBoundingClientRect().top < 0) nav.current.scrollIntoView({ block: "start" });
    };
    follow(false);
    const onHash = () => follow(true);
    window.addEventListener("hashchange", onHash);
    return () => window.removeEventListener("hashchange", onHash);
  }, [key]);

  return (
    <div>
      <nav ref={nav} aria-label={label} className="mb-6 flex scroll-mt-4 flex-wrap gap-x-1 border-b border-slate-200" data-testid="page-sections">
        {sections.map((s) => (
          <a key={s.id} href={`#${s.id}`} aria-current={s.id === active ? "true" : undefined} className={tabClass(s.id === active)}>
            {s.label}
            {s.badge !== undefined && <span className="ml-1.5 font-normal text-slate-500">{s.badge}</span>}
          </a>
        ))}
      </nav>
      {sections.map((s) => (
        <section key={s.id} id={s.id} aria-label={s.label} hidden={s.id !== active} data-page-section className="space-y-6">
          {s.content}
        </section>
      ))}
    </div>
  );
}
