"use client";

import { Bar } from "react-chartjs-2";
import { CATEGORY_LABELS, type Category } from "@/contracts/categories";
import { bucketLabel } from "./chart-setup";
import type { Bucket } from "../../isomorphic/buckets";
import { categoryColor, type CountSeries } from "./prepare";

const labelOf = (key: string) => CATEGORY_LABELS[key as Category] ?? key;

/** Failure categories as stacked bars over time (prepared by stackedCategorySeries). */
export function CategoryStackedChart({ labels, series, bucket, height = 260 }: { labels: number[]; series: CountSeries[]; bucket: Bucket; height?: number }) {
  return (
    <div style={{ height }} data-testid="category-chart" data-series={series.length}>
      <Bar
        aria-label="Invalid calls by failure category over time"
        role="img"
        data={{
          labels: labels.map((l) => bucketLabel(l, bucket)),
          datasets: series.map((s) => ({ label: labelOf(s.key), data: s.values, backgroundColor: categoryColor(s.key), stack: "c" })),
        }}
        options={{
          responsive: true,
          maintainAspectRatio: false,
          animation: false,
          scales: {
            x: { stacked: true, grid: { display: false }, ticks: { maxTicksLimit: 10, maxRotation: 0 } },
            y: { stacked: true, beginAtZero: true, grid: { color: "#f1f5f9" }, ticks: { precision: 0 } },
          },
          plugins: { legend: { position: "bottom", labels: { boxWidth: 10, boxHeight: 10 } } },
        }}
      />
    </div>
  );
}

/** The range's breakdown: one horizontal bar per category, largest first. */
export function CategoryBreakdownChart({ rows, height = 240 }: { rows: { key: string; count: number }[]; height?: number }) {
  return (
    <div style={{ height }} data-testid="category-breakdown" data-series={rows.length}>
      <Bar
        aria-label="Invalid calls by failure category"
        role="img"
        data={{
          labels: rows.map((r) => labelOf(r.key)),
          datasets: [{ label: "Invalid calls", data: rows.map((r) => r.count), backgroundColor: rows.map((r) => categoryColor(r.key)) }],
        }}
        options={{
          indexAxis: "y",
          responsive: true,
          maintainAspectRatio: false,
          animation: false,
          scales: { x: { beginAtZero: true, grid: { color: "#f1f5f9" }, ticks: { precision: 0 } }, y: { grid: { display: false } } },
          plugins: { legend: { display: false } },
        }}
      />
    </div>
  );
}
