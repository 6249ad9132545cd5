"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { TIME_ZONE_COOKIE, timeZoneCookieValue, type TimeZoneSetting } from "../isomorphic/time-zone";
import { cx } from "./ui";

const YEAR_S = 365 * 24 * 3600;
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

function save(setting: TimeZoneSetting) {
  document.cookie = `${TIME_ZONE_COOKIE}=${timeZoneCookieValue(setting)}; path=/; max-age=${YEAR_S}; samesite=lax`;
}

/**
 * UTC or local time for every time the app shows (chart axes, tooltips, tables, ranges). Kept in
 * a cookie, so that the server renders pages in the chosen zone; "local" stores the browser's zone
 * and follows it when it changes (a laptop that travelled).
 */
export function TimeZoneSetting({ setting }: { setting: TimeZoneSetting }) {
  const router = useRouter();
  const choose = (next: TimeZoneSetting) => {
    save(next);
    router.refresh();
  };
  useEffect(() => {
    if (setting.mode === "local" && setting.zone !== browserZone()) {
      save({ mode: "local", zone: browserZone() });
      router.refresh();
    }
  }, [setting, router]);

  const options = [
    { label: "UTC", active: setting.mode === "utc", pick: () => choose({ mode: "utc", zone: "UTC" }) },
    { label: "Local", active: setting.mode === "local", pick: () => choose({ mode: "local", zone: browserZone() }) },
  ];
  return (
    <div role="group" aria-label="Show times in" className="flex items-center gap-2 text-xs text-slate-500" data-testid="time-zone-setting">
      <span aria-hidden>Times</span>
      <span className="inline-flex overflow-hidden rounded-md ring-1 ring-inset ring-slate-300">
        {options.map((o, i) => (
          <button
            key={o.label}
            type="button"
            aria-pressed={o.active}
            onClick={o.pick}
            title={o.label === "Local" ? (setting.mode === "local" ? setting.zone : "Your browser's time zone") : "Coordinated Universal Time"}
            className={cx(
              "px-2 py-0.5 font-medium focus-visible:relative focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500",
              i > 0 && "border-l border-slate-300",
              o.active ? "bg-indigo-50 text-indigo-700" : "text-slate-600 hover:bg-slate-50",
            )}
          >
            {o.label === "Local" ? "Local time" : "UTC"}
          </button>
        ))}
      </span>
    </div>
  );
}
