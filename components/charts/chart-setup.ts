"use client";

import { BarElement, CategoryScale, Chart as ChartJS, Filler, Legend, LinearScale, LineElement, PointElement, Tooltip } from "chart.js";
import annotationPlugin from "chartjs-plugin-annotation";

// Registered once, for every chart of the app.
ChartJS.register(CategoryScale, LinearScale, PointElement, LineElement, BarElement, Filler, Tooltip, Legend, annotationPlugin);
ChartJS.defaults.font.family = "ui-sans-serif, system-ui, -apple-system, 'Segoe UI', sans-serif";
ChartJS.defaults.font.size = 12;

/** "Nov 30 14:00" for hourly buckets, "Nov 30" for daily ones (UTC, as the rollups are). */
export function bucketLabel(ms: number, bucket: "hour" | "day") {
  const d = new Date(ms);
  const day = d.toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
  return bucket === "hour" ? `${day} ${String(d.getUTCHours()).padStart(2, "0")}:00` : day;
}

export const percent = (v: number | null | undefined, digits = 1) => (v === null || v === undefined ? "–" : `${(v * 100).toFixed(digits)}%`);

/** A vertical dashed line with a label, e.g. where a schema version first appeared. */
export type Marker = { at: number; label: string };
