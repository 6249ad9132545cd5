"use client";

import type { Chart as ChartJS } from "chart.js";
import { formatCount, formatPercent } from "../../contracts/format-number";
import { useRef } from "react";
import { Line } from "react-chartjs-2";
import { bucketLabel } from "../../isomorphic/time-zone";
import type { Bucket } from "../../isomorphic/buckets";
import { bucketColumn, bucketTitle, markerAnnotations, type Marker } from "./chart-setup";
import { ChartFrame } from "./chart-frame";
import { bucketHref, type Explore } from "./explore";
import { seriesColor, type RateSeries } from "./prepare";
import { useChartTheme } from "./theme";

/**
 * Rates over time, one line per series (prepared by timeSeries). A null value is a gap:
 * the bucket had no calls, which is not the same as a rate of zero. With `explore`, a click on
 * a point opens that bucket's calls of that series; with `zoom`, a drag selects a new range.
 */
export function RateLineChart({
  labels,
  series,
  bucket,
  markers = [],
  threshold,
  height = 260,
  label = "Invalid rate",
  colors,
  zone = "UTC",
  explore,
  zoom = false,
}: {
  labels: number[];
  series: RateSeries[];
  bucket: Bucket;
  markers?: Marker[];
  threshold?: number;
  height?: number;
  label?: string;
  /** Colours by series key (see assignColors); default seriesColor(key). */
  colors?: Record<string, string>;
  /** IANA zone of the axis, tooltips and table (hours; days are UTC days). */
  zone?: string;
  explore?: Explore;
  zoom?: boolean;
}) {
  const theme = useChartTheme();
  const chartRef = useRef<ChartJS<"line"> | null>(null);
  const annotations = {
    ...markerAnnotations(markers, labels, theme),
    ...(threshold !== undefined
      ? {
          threshold: {
            type: "line" as const,
            yMin: threshold,
            yMax: threshold,
            borderColor: theme.threshold.line,
            borderWidth: 1.5,
            borderDash: [6, 3],
            label: {
              display: true,
              content: `threshold ${formatPercent(threshold)}`,
              position: "end" as const,
              backgroundColor: theme.threshold.labelBackground,
              color: theme.threshold.labelText,
              font: { size: 11 },
            },
          },
        }
      : {}),
  };
  const hrefAt = (datasetIndex: number, index: number) =>
    explore && labels[index] !== undefined ? bucketHref(explore, series[datasetIndex]?.key, labels[index]!, bucket) : undefined;
  const cellOf = (s: RateSeries, i: number) => {
    const v = s.values[i];
    if (v === null || v === undefined) return null;
    const text = `${formatPercent(v)} of ${formatCount(s.totals[i] ?? 0)}`;
    return explore ? { text, href: bucketHref(explore, s.key, labels[i]!, bucket) } : { text };
  };
  const title = `${label} over time`;
  return (
    <ChartFrame
      title={title}
      height={height}
      chartRef={chartRef}
      pointer={
        explore || zoom
          ? { element: "point", mode: "nearest", intersect: false, hrefAt: explore ? hrefAt : undefined, zoom: zoom ? { labels, bucket } : undefined }
          : undefined
      }
      markers={markers}
      zone={zone}
      testId="rate-chart"
      data={{ "data-series": series.length, "data-points": series.reduce((n, s) => n + s.values.filter((v) => v !== null).length, 0) }}
      table={{
        columns: [bucketColumn(bucket, zone), ...series.map((s) => s.key)],
        rows: labels
          .map((start, i) => ({ key: String(start), label: bucketLabel(start, bucket, zone), cells: series.map((s) => cellOf(s, i)) }))
          .filter((row) => row.cells.some((c) => c !== null)),
      }}
    >
      <Line
        ref={chartRef}
        aria-label={`${title}; the button above shows the data as a table`}
        role="img"
        data={{
          labels: labels.map((l) => bucketLabel(l, bucket, zone)),
          datasets: series.map((s) => ({
            label: s.key,
            data: s.values,
            borderColor: theme.color(colors?.[s.key] ?? seriesColor(s.key)),
            backgroundColor: theme.color(colors?.[s.key] ?? seriesColor(s.key)),
            spanGaps: false,
            pointRadius: labels.length > 60 ? 0 : 2,
            borderWidth: 2,
            tension: 0.2,
          })),
        }}
        options={{
          responsive: true,
          maintainAspectRatio: false,
          animation: false,
          interaction: { mode: "index", intersect: false },
          scales: {
            y: { beginAtZero: true, ticks: { color: theme.text, callback: (v) => formatPercent(Number(v), { digits: 0 }) }, grid: { color: theme.grid } },
            x: { grid: { display: false }, ticks: { color: theme.text, maxTicksLimit: 10, maxRotation: 0 } },
          },
          plugins: {
            legend: { position: "bottom", labels: { color: theme.text, boxWidth: 10, boxHeight: 10 } },
            tooltip: {
              ...theme.tooltip,
              callbacks: {
                title: (items) => (items[0] ? bucketTitle(labels[items[0].dataIndex]!, bucket, zone) : ""),
                label: (ctx) => {
                  const total = series[ctx.datasetIndex]?.totals[ctx.dataIndex] ?? 0;
                  return ` ${ctx.dataset.label}: ${formatPercent(ctx.parsed.y)} of ${formatCount(total)} calls`;
                },
              },
            },
            annotation: { annotations },
          },
        }}
      />
    </ChartFrame>
  );
}
