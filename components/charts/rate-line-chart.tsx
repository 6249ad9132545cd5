"use client";

import { Line } from "react-chartjs-2";
import { bucketLabel, percent, type Marker } from "./chart-setup";
import type { Bucket } from "../../isomorphic/buckets";
import { seriesColor, type RateSeries } from "./prepare";

/**
 * Rates over time, one line per series (prepared by timeSeries). A null value is a gap:
 * the bucket had no calls, which is not the same as a rate of zero.
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
}) {
  const annotations = Object.fromEntries([
    ...markers.map((m, i) => {
      const index = labels.findIndex((l) => l >= m.at);
      return [
        `marker${i}`,
        {
          type: "line" as const,
          xMin: index < 0 ? labels.length - 1 : index,
          xMax: index < 0 ? labels.length - 1 : index,
          borderColor: "#6366f1",
          borderDash: [4, 4],
          borderWidth: 1.5,
          label: { display: true, content: m.label, position: "start" as const, backgroundColor: "#eef2ff", color: "#3730a3", font: { size: 11 } },
        },
      ];
    }),
    ...(threshold !== undefined
      ? [
          [
            "threshold",
            {
              type: "line" as const,
              yMin: threshold,
              yMax: threshold,
              borderColor: "#dc2626",
              borderWidth: 1.5,
              borderDash: [6, 3],
              label: {
                display: true,
                content: `threshold ${percent(threshold)}`,
                position: "end" as const,
                backgroundColor: "#fef2f2",
                color: "#991b1b",
                font: { size: 11 },
              },
            },
          ],
        ]
      : []),
  ]);
  return (
    <div
      style={{ height }}
      data-testid="rate-chart"
      data-series={series.length}
      data-points={series.reduce((n, s) => n + s.values.filter((v) => v !== null).length, 0)}
    >
      <Line
        aria-label={`${label} over time`}
        role="img"
        data={{
          labels: labels.map((l) => bucketLabel(l, bucket)),
          datasets: series.map((s) => ({
            label: s.key,
            data: s.values,
            borderColor: colors?.[s.key] ?? seriesColor(s.key),
            backgroundColor: colors?.[s.key] ?? seriesColor(s.key),
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
            y: { beginAtZero: true, ticks: { callback: (v) => percent(Number(v), 0) }, grid: { color: "#f1f5f9" } },
            x: { grid: { display: false }, ticks: { maxTicksLimit: 10, maxRotation: 0 } },
          },
          plugins: {
            legend: { position: "bottom", labels: { boxWidth: 10, boxHeight: 10 } },
            tooltip: {
              callbacks: {
                label: (ctx) => {
                  const total = series[ctx.datasetIndex]?.totals[ctx.dataIndex] ?? 0;
                  return ` ${ctx.dataset.label}: ${percent(ctx.parsed.y)} of ${total.toLocaleString("en")} calls`;
                },
              },
            },
            annotation: { annotations },
          },
        }}
      />
    </div>
  );
}
