"use client";

import * as Dialog from "@radix-ui/react-dialog";
import { Fragment } from "react";
import { buttonClass } from "../ui";
import { SHORTCUT_LIST } from "./shortcuts";

const kbd = "inline-block min-w-6 rounded border border-slate-300 bg-slate-50 px-1.5 py-0.5 text-center font-sans text-xs font-medium text-slate-800";

/** The list `?` opens: every shortcut of the project pages. */
export function ShortcutsDialog({ open, onClose, restoreFocus }: { open: boolean; onClose: () => void; restoreFocus: () => void }) {
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-scrim/50" />
        <Dialog.Content
          data-testid="shortcuts-dialog"
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            restoreFocus();
          }}
          className="fixed left-1/2 top-3 z-50 max-h-[calc(100dvh-1.5rem)] w-[calc(100vw-1.5rem)] max-w-lg -translate-x-1/2 overflow-y-auto rounded-xl bg-white p-5 shadow-2xl ring-1 ring-slate-200 sm:top-[12vh]"
        >
          <div className="flex items-start justify-between gap-4">
            <Dialog.Title className="text-base font-semibold text-slate-900">Keyboard shortcuts</Dialog.Title>
            <Dialog.Close className={buttonClass("secondary", "sm")}>Close</Dialog.Close>
          </div>
          <Dialog.Description className="mt-1 text-sm text-slate-600">
            On every page of a project. The single keys do nothing while you type in a field.
          </Dialog.Description>
          <dl className="mt-4 grid grid-cols-[auto_1fr] items-baseline gap-x-4 gap-y-2 text-sm">
            {SHORTCUT_LIST.map((s) => (
              <Fragment key={s.what}>
                <dt className="whitespace-nowrap" data-testid="shortcut-keys">
                  {s.keys.map((k, i) => (
                    <Fragment key={k}>
                      {i > 0 && <span className="px-1 text-xs text-slate-500">{s.then ? "then" : "+"}</span>}
                      <kbd className={kbd}>{k}</kbd>
                    </Fragment>
                  ))}
                </dt>
                <dd className="text-slate-700">{s.what}</dd>
              </Fragment>
            ))}
          </dl>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
