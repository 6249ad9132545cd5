"use client";

import { BarElement, CategoryScale, Chart as ChartJS, Filler, Legend, LinearScale, LineElement, PointElement, Tooltip } from "chart.js";
import annotationPlugin, { type AnnotationOptions, type EventContext, type PartialEventContext } from "chartjs-plugin-annotation";
import type { Bucket } from "../../isomorphic/buckets";
import { bucketLabel, formatDateTimeZoned, zoneName } from "../../isomorphic/time-zone";
import { fitLabel } from "./prepare";
import type { ChartTheme } from "./theme";

// Registered once, for every chart of the app.
ChartJS.register(CategoryScale, LinearScale, PointElement, LineElement, BarElement, Filler, Tooltip, Legend, annotationPlugin);
ChartJS.defaults.font.family = "ui-sans-serif, system-ui, -apple-system, 'Segoe UI', sans-serif";
ChartJS.defaults.font.size = 12;

/**
 * A vertical dashed line with a label on a time chart: where a schema version first appeared
 * ("schema"), where an incident fired ("incident"), or any other moment.
 */
export type Marker = { at: number; label: string; kind?: "schema" | "incident" };

/** The index of the bucket a moment falls in (the last bucket starting at or before it). */
function bucketIndexOf(labels: readonly number[], at: number): number {
  let index = 0;
  for (let i = 0; i < labels.length; i++) if (labels[i]! <= at) index = i;
  return index;
}

/**
 * The annotation plugin's lines for the markers, each at the bucket it falls in. A line's label
 * shows only while the pointer is on it (a tap on a phone): written on the plot it covered the
 * lines and bars, and two markers close together covered each other. The list under the chart
 * (ChartFrame) names every marker with its time.
 */
export function markerAnnotations(markers: readonly Marker[], labels: readonly number[], theme: ChartTheme): Record<string, AnnotationOptions> {
  return Object.fromEntries(
    markers.map((m, i) => {
      const x = bucketIndexOf(labels, m.at);
      // schema versions in the marker colour, incidents in the threshold's red (app/globals.css)
      const style = m.kind === "incident" ? theme.threshold : theme.marker;
      return [
        `marker${i}`,
        {
          type: "line" as const,
          xMin: x,
          xMax: x,
          borderColor: style.line,
          borderDash: [4, 4],
          borderWidth: 1.5,
          label: {
            display: false,
            content: ({ chart }: PartialEventContext) => fitLabel(m.label, chart.chartArea?.width ?? Infinity),
            position: "start" as const,
            backgroundColor: style.labelBackground,
            color: style.labelText,
            font: { size: 11 },
          },
          enter: (ctx: EventContext) => showLabel(ctx, true),
          leave: (ctx: EventContext) => showLabel(ctx, false),
        },
      ];
    }),
  );
}

function showLabel({ element }: EventContext, display: boolean) {
  if (element.label) element.label.options.display = display;
  return true; // redraw
}

/** A tooltip's title: the bucket's start with its zone ("2026-11-30 14:00 CET"), or its UTC day. */
export function bucketTitle(start: number, bucket: Bucket, zone: string) {
  return bucket === "hour" ? formatDateTimeZoned(start, zone) : `${bucketLabel(start, "day")} (UTC day)`;
}

/** The time column's header of a chart's table. */
export const bucketColumn = (bucket: Bucket, zone: string) => (bucket === "hour" ? `Hour (${zoneName(zone)})` : "Day (UTC)");
