"use client";

import { Line } from "react-chartjs-2";
import { bucketLabel, percent, type Marker } from "./chart-setup";
import type { Bucket } from "../../isomorphic/buckets";
import { seriesColor, type RateSeries } from "./prepare";
import { useChartTheme } from "./theme";

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
  const theme = useChartTheme();
  const annotations = Object.fromEntries([
    ...markers.map((m, i) => {
      const index = labels.findIndex((l) => l >= m.at);
      return [
        `marker${i}`,
        {
          type: "line" as const,
          xMin: index < 0 ? labels.length - 1 : index,
          xMax: index < 0 ? labels.length - 1 : index,
          borderColor: theme.marker.line,
          borderDash: [4, 4],
          borderWidth: 1.5,
          label: {
            display: true,
            content: m.label,
            position: "start" as const,
            backgroundColor: theme.marker.labelBackground,
            color: theme.marker.labelText,
            font: { size: 11 },
          },
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
              borderColor: theme.threshold.line,
              borderWidth: 1.5,
              borderDash: [6, 3],
              label: {
                display: true,
                content: `threshold ${percent(threshold)}`,
                position: "end" as const,
                backgroundColor: theme.threshold.labelBackground,
                color: theme.threshold.labelText,
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
            y: { beginAtZero: true, ticks: { color: theme.text, callback: (v) => percent(Number(v), 0) }, grid: { color: theme.grid } },
            x: { grid: { display: false }, ticks: { color: theme.text, maxTicksLimit: 10, maxRotation: 0 } },
          },
          plugins: {
            legend: { position: "bottom", labels: { color: theme.text, boxWidth: 10, boxHeight: 10 } },
            tooltip: {
              ...theme.tooltip,
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
