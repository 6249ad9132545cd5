"use client";

import type { Chart as ChartJS } from "chart.js";
import { useRef } from "react";
import { Bar } from "react-chartjs-2";
import { CATEGORY_LABELS, type Category } from "@/contracts/categories";
import { bucketLabel } from "../../isomorphic/time-zone";
import type { Bucket } from "../../isomorphic/buckets";
import { bucketColumn, bucketTitle, markerAnnotations, type Marker } from "./chart-setup";
import { ChartFrame } from "./chart-frame";
import { bucketHref, rangeHref, seriesParam, type Explore } from "./explore";
import { categoryColor, type CountSeries } from "./prepare";
import { useChartTheme } from "./theme";
import { formatCount } from "../../contracts/format-number";

const labelOf = (key: string) => CATEGORY_LABELS[key as Category] ?? key;

/**
 * Failure categories as stacked bars over time (prepared by stackedCategorySeries). With
 * `explore`, a click on a bar opens that bucket's calls of that category; with `zoom`, a drag
 * selects a new range.
 */
export function CategoryStackedChart({
  labels,
  series,
  bucket,
  height = 260,
  markers = [],
  zone = "UTC",
  explore,
  zoom = false,
}: {
  labels: number[];
  series: CountSeries[];
  bucket: Bucket;
  height?: number;
  markers?: Marker[];
  zone?: string;
  /** the explorer of the page's scope; each bar adds its category */
  explore?: Explore;
  zoom?: boolean;
}) {
  const chartRef = useRef<ChartJS<"bar"> | null>(null);
  const byCategory = explore && {
    ...explore,
    series: seriesParam(
      "category",
      series.map((s) => s.key),
    ),
  };
  const title = "Invalid calls by failure category over time";
  const theme = useChartTheme();
  return (
    <ChartFrame
      title={title}
      height={height}
      chartRef={chartRef}
      pointer={
        byCategory || zoom
          ? {
              element: "bar",
              mode: "point",
              intersect: true,
              hrefAt: byCategory ? (d, i) => (series[d] ? bucketHref(byCategory, series[d].key, labels[i]!, bucket) : undefined) : undefined,
              zoom: zoom ? { labels, bucket } : undefined,
            }
          : undefined
      }
      markers={markers}
      zone={zone}
      testId="category-chart"
      data={{ "data-series": series.length }}
      table={{
        columns: [bucketColumn(bucket, zone), ...series.map((s) => labelOf(s.key))],
        rows: labels
          .map((start, i) => ({
            key: String(start),
            label: bucketLabel(start, bucket, zone),
            cells: series.map((s) => {
              const v = s.values[i];
              if (v === null || v === undefined) return null;
              return byCategory ? { text: formatCount(v), href: bucketHref(byCategory, s.key, start, bucket) } : { text: formatCount(v) };
            }),
          }))
          .filter((row) => row.cells.some((c) => c !== null)),
      }}
    >
      <Bar
        ref={chartRef}
        aria-label={`${title}; the button above shows the data as a table`}
        role="img"
        data={{
          labels: labels.map((l) => bucketLabel(l, bucket, zone)),
          datasets: series.map((s) => ({ label: labelOf(s.key), data: s.values, backgroundColor: theme.color(categoryColor(s.key)), stack: "c" })),
        }}
        options={{
          responsive: true,
          maintainAspectRatio: false,
          animation: false,
          scales: {
            x: { stacked: true, grid: { display: false }, ticks: { color: theme.text, maxTicksLimit: 10, maxRotation: 0 } },
            y: { stacked: true, beginAtZero: true, grid: { color: theme.grid }, ticks: { color: theme.text, precision: 0 } },
          },
          plugins: {
            legend: { position: "bottom", labels: { color: theme.text, boxWidth: 10, boxHeight: 10 } },
            tooltip: { ...theme.tooltip, callbacks: { title: (items) => (items[0] ? bucketTitle(labels[items[0].dataIndex]!, bucket, zone) : "") } },
            annotation: { annotations: markerAnnotations(markers, labels, theme) },
          },
        }}
      />
    </ChartFrame>
  );
}

/** The range's breakdown: one horizontal bar per category, largest first; a click opens its calls. */
export function CategoryBreakdownChart({
  rows,
  height = 240,
  explore,
  range,
}: {
  rows: { key: string; count: number }[];
  height?: number;
  explore?: Explore;
  range?: { from: string; to: string };
}) {
  const chartRef = useRef<ChartJS<"bar"> | null>(null);
  const byCategory = explore &&
    range && {
      ...explore,
      series: seriesParam(
        "category",
        rows.map((r) => r.key),
      ),
    };
  const hrefOf = (key: string) => (byCategory && range ? rangeHref(byCategory, key, range) : undefined);
  const title = "Invalid calls by failure category";
  const theme = useChartTheme();
  return (
    <ChartFrame
      title={title}
      height={height}
      chartRef={chartRef}
      pointer={byCategory ? { element: "bar", mode: "index", intersect: false, hrefAt: (_, i) => (rows[i] ? hrefOf(rows[i].key) : undefined) } : undefined}
      testId="category-breakdown"
      data={{ "data-series": rows.length }}
      table={{
        columns: ["Category", "Invalid calls"],
        rows: rows.map((r) => ({ key: r.key, label: labelOf(r.key), cells: [{ text: formatCount(r.count), href: hrefOf(r.key) }] })),
      }}
    >
      <Bar
        ref={chartRef}
        aria-label={`${title}; the button above shows the data as a table`}
        role="img"
        data={{
          labels: rows.map((r) => labelOf(r.key)),
          datasets: [{ label: "Invalid calls", data: rows.map((r) => r.count), backgroundColor: rows.map((r) => theme.color(categoryColor(r.key))) }],
        }}
        options={{
          indexAxis: "y",
          responsive: true,
          maintainAspectRatio: false,
          animation: false,
          scales: {
            x: { beginAtZero: true, grid: { color: theme.grid }, ticks: { color: theme.text, precision: 0 } },
            y: { grid: { display: false }, ticks: { color: theme.text } },
          },
          plugins: { legend: { display: false }, tooltip: theme.tooltip },
        }}
      />
    </ChartFrame>
  );
}
