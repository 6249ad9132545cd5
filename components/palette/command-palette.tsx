"use client";

// The command palette: a modal dialog (Radix: focus kept inside, Escape closes, the focus goes
// back where it was) holding a combobox and its list (cmdk: arrow keys, Enter, the ARIA roles).
// The ranking is ours (./match.ts), so cmdk's own filter is off.

import * as Dialog from "@radix-ui/react-dialog";
import { useQuery } from "@tanstack/react-query";
import { Command } from "cmdk";
import { useRouter } from "next/navigation";
import { useEffect, useMemo, useState } from "react";
import { useTRPC } from "../trpc-provider";
import { cx } from "../ui";
import { grouped, idEntries, indexEntries, mergeEntries, noIdMessage, recentEntries, sayNoId } from "./entries";
import { mayBeId, rankEntries, type Entry } from "./match";
import { readRecent } from "./recent";

const LOOKUP_DELAY_MS = 200;
const RESULTS = 40;
/** With nothing typed: a few of each kind, to browse. */
const PER_GROUP_EMPTY = 6;

function useDebounced(value: string, ms: number) {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

export function CommandPalette({
  slug,
  zone,
  open,
  onClose,
  onShortcuts,
  restoreFocus,
}: {
  slug: string;
  zone: string;
  open: boolean;
  onClose: () => void;
  onShortcuts: () => void;
  /** gives the focus back to what had it before the palette opened */
  restoreFocus: () => void;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const [query, setQuery] = useState("");
  const [recent, setRecent] = useState<ReturnType<typeof readRecent>>([]);
  useEffect(() => {
    if (!open) return;
    setQuery("");
    setRecent(readRecent(slug));
  }, [open, slug]);

  const index = useQuery({ ...trpc.palette.index.queryOptions({ project: slug }), enabled: open, staleTime: 60_000 });
  const typed = useDebounced(query.trim(), LOOKUP_DELAY_MS);
  const lookingUp = open && mayBeId(typed);
  const lookup = useQuery({ ...trpc.palette.lookup.queryOptions({ project: slug, text: typed }), enabled: lookingUp, staleTime: 30_000 });

  const known = useMemo(() => indexEntries(slug, index.data, zone), [slug, index.data, zone]);
  const found = lookingUp && lookup.data && typed === query.trim() ? idEntries(slug, lookup.data, zone) : [];
  const empty = !query.trim();
  const ranked = empty ? known : rankEntries(query, known, RESULTS);
  const entries = empty ? known : mergeEntries(found, ranked);
  const groups = [
    ...(empty && recent.length ? [{ heading: "Recent", entries: recentEntries(recent, known) }] : []),
    ...grouped(entries, empty ? PER_GROUP_EMPTY : Infinity),
  ];
  const idStatus =
    lookingUp && typed === query.trim()
      ? lookup.isError
        ? `Could not look the id up: ${lookup.error.message}`
        : lookup.data && !found.length
          ? sayNoId(typed, ranked.length)
            ? noIdMessage(typed)
            : null
          : lookup.isFetching
            ? "Looking for calls, runs and incidents with this id…"
            : null
      : null;

  const choose = (entry: Entry) => {
    onClose();
    if (entry.action === "shortcuts") onShortcuts();
    else if (entry.href) router.push(entry.href);
  };

  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-scrim/50" />
        <Dialog.Content
          data-testid="command-palette"
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            restoreFocus();
          }}
          className="fixed left-1/2 top-3 z-50 flex max-h-[calc(100dvh-1.5rem)] w-[calc(100vw-1.5rem)] max-w-2xl -translate-x-1/2 flex-col overflow-hidden rounded-xl bg-white shadow-2xl ring-1 ring-slate-200 sm:top-[12vh] sm:max-h-[76vh]"
        >
          <Dialog.Title className="sr-only">Command palette</Dialog.Title>
          <Dialog.Description className="sr-only">
            Jump to a page, tool, model version, incident or alert rule, or paste a call, run or incident id. Arrow keys move, Enter opens, Escape closes.
          </Dialog.Description>
          <Command shouldFilter={false} loop vimBindings={false} label="Command palette" className="flex min-h-0 flex-col">
            <div className="flex items-center gap-2 border-b border-slate-200 px-4">
              <svg aria-hidden viewBox="0 0 20 20" fill="none" stroke="currentColor" strokeWidth="2" className="size-4 shrink-0 text-slate-500">
                <circle cx="8.5" cy="8.5" r="5.5" />
                <path d="m13 13 4 4" strokeLinecap="round" />
              </svg>
              <Command.Input
                value={query}
                onValueChange={setQuery}
                aria-label="Search pages, tools, models, incidents, or paste a call or run id"
                placeholder="Search, or paste a call or run id…"
                data-testid="palette-input"
                className="min-w-0 flex-1 bg-transparent py-3.5 text-base text-slate-900 placeholder:text-slate-500 focus:outline-none"
              />
              <Dialog.Close className="rounded px-1.5 py-0.5 text-xs text-slate-600 ring-1 ring-inset ring-slate-300 hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500">
                Esc<span className="sr-only"> (close)</span>
              </Dialog.Close>
            </div>
            <Command.List label="Results" className="min-h-0 flex-1 overflow-y-auto overscroll-contain px-2 py-2">
              {index.isError && <p className="px-3 py-2 text-sm text-red-700">Could not load the project&apos;s names: {index.error.message}</p>}
              <Command.Empty className="px-3 py-6 text-center text-sm text-slate-600">Nothing matches &ldquo;{query.trim()}&rdquo;.</Command.Empty>
              {groups.map((group) => (
                <Command.Group
                  key={group.heading}
                  heading={group.heading}
                  className="mb-1 [&_[cmdk-group-heading]]:px-3 [&_[cmdk-group-heading]]:pb-1 [&_[cmdk-group-heading]]:pt-2 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:font-semibold [&_[cmdk-group-heading]]:uppercase [&_[cmdk-group-heading]]:tracking-wide [&_[cmdk-group-heading]]:text-slate-500"
                >
                  {group.entries.map((entry) => (
                    <Command.Item
                      key={entry.key}
                      value={entry.key}
                      onSelect={() => choose(entry)}
                      data-testid="palette-item"
                      data-kind={entry.kind}
                      className={cx(
                        "flex cursor-pointer flex-col rounded-md px-3 py-2 text-slate-800",
                        "data-[selected=true]:bg-indigo-50 data-[selected=true]:text-indigo-900",
                      )}
                    >
                      <span className="truncate font-medium" title={entry.label}>
                        {entry.label}
                      </span>
                      {entry.detail && <span className="truncate text-xs text-slate-600">{entry.detail}</span>}
                    </Command.Item>
                  ))}
                </Command.Group>
              ))}
            </Command.List>
            <p role="status" data-testid="palette-status" className={cx("border-t border-slate-200 px-4 py-2 text-xs text-slate-600", !idStatus && "sr-only")}>
              {idStatus ?? (index.isPending ? "Loading the project's tools, models and incidents…" : "")}
            </p>
            <p className="hidden border-t border-slate-200 px-4 py-2 text-xs text-slate-500 sm:block" aria-hidden>
              ↑↓ move · Enter opens · Esc closes · ? lists the shortcuts
            </p>
          </Command>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
