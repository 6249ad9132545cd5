"use client";

import { useMemo, useSyncExternalStore } from "react";

// The charts' colours in the current colour scheme. app/globals.css decides them (the
// --chart-* and --color-series-* variables, light and dark); a canvas cannot read a CSS
// variable, so this hook resolves them to values and draws again when the system's scheme
// changes. Chart colours are hex there: Chart.js derives hover colours by parsing them.

const DARK = "(prefers-color-scheme: dark)";

function subscribe(onChange: () => void) {
  const query = window.matchMedia(DARK);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

/** "dark" when the system asks for it; "light" on the server, where nothing is drawn. */
function useColorScheme(): "light" | "dark" {
  return useSyncExternalStore(
    subscribe,
    () => (window.matchMedia(DARK).matches ? "dark" : "light"),
    () => "light",
  );
}

/** A colour for the canvas: `var(--name)` becomes the variable's current value; anything else is returned as it is. */
function resolveColor(color: string): string {
  const variable = /^var\((--[\w-]+)\)$/.exec(color)?.[1];
  if (!variable || typeof document === "undefined") return color;
  return getComputedStyle(document.documentElement).getPropertyValue(variable).trim() || color;
}

export type ChartTheme = ReturnType<typeof readTheme>;

function readTheme(scheme: "light" | "dark") {
  const v = (name: string) => resolveColor(`var(--chart-${name})`);
  return {
    scheme,
    /** Resolves a series colour (seriesColor, assignColors, categoryColor give `var(--color-series-N)`). */
    color: resolveColor,
    text: v("text"),
    grid: v("grid"),
    tooltip: { backgroundColor: v("tooltip-bg"), titleColor: v("tooltip-text"), bodyColor: v("tooltip-text"), footerColor: v("tooltip-text") },
    marker: { line: v("marker"), labelBackground: v("marker-label-bg"), labelText: v("marker-label-text") },
    threshold: { line: v("threshold"), labelBackground: v("threshold-label-bg"), labelText: v("threshold-label-text") },
  };
}

/** The chart colours of the scheme in use; a chart using it redraws when the scheme changes. */
export function useChartTheme(): ChartTheme {
  const scheme = useColorScheme();
  return useMemo(() => readTheme(scheme), [scheme]);
}
