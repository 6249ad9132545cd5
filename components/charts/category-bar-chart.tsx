"use client";

import { Bar } from "react-chartjs-2";
import { CATEGORY_LABELS, type Category } from "@/contracts/categories";
import { bucketLabel } from "./chart-setup";
import type { Bucket } from "../../isomorphic/buckets";
import { categoryColor, type CountSeries } from "./prepare";
import { useChartTheme } from "./theme";

const labelOf = (key: string) => CATEGORY_LABELS[key as Category] ?? key;

/** Failure categories as stacked bars over time (prepared by stackedCategorySeries). */
export function CategoryStackedChart({ labels, series, bucket, height = 260 }: { labels: number[]; series: CountSeries[]; bucket: Bucket; height?: number }) {
  const theme = useChartTheme();
  return (
    <div style={{ height }} data-testid="category-chart" data-series={series.length}>
      <Bar
        aria-label="Invalid calls by failure category over time"
        role="img"
        data={{
          labels: labels.map((l) => bucketLabel(l, bucket)),
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
          plugins: { legend: { position: "bottom", labels: { color: theme.text, boxWidth: 10, boxHeight: 10 } }, tooltip: theme.tooltip },
        }}
      />
    </div>
  );
}

/** The range's breakdown: one horizontal bar per category, largest first. */
export function CategoryBreakdownChart({ rows, height = 240 }: { rows: { key: string; count: number }[]; height?: number }) {
  const theme = useChartTheme();
  return (
    <div style={{ height }} data-testid="category-breakdown" data-series={rows.length}>
      <Bar
        aria-label="Invalid calls by failure category"
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
    </div>
  );
}
