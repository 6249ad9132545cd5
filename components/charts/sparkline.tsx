"use client";

import { Line } from "react-chartjs-2";
// registers chart.js's scales and elements: a page whose only chart is a sparkline needs it too
import "./chart-setup";
import { seriesColor } from "./prepare";
import { useChartTheme } from "./theme";

/** A tiny trend line without axes; nulls are gaps. */
export function Sparkline({
  values,
  colorKey,
  color,
  width = 120,
  height = 32,
}: {
  values: (number | null)[];
  colorKey: string;
  color?: string;
  width?: number;
  height?: number;
}) {
  const theme = useChartTheme();
  return (
    <div style={{ width, height }} data-testid="sparkline">
      <Line
        aria-hidden
        data={{
          labels: values.map((_, i) => i),
          datasets: [
            { data: values, borderColor: theme.color(color ?? seriesColor(colorKey)), borderWidth: 1.5, pointRadius: 0, spanGaps: false, tension: 0.3 },
          ],
        }}
        options={{
          responsive: false,
          animation: false,
          events: [],
          scales: { x: { display: false }, y: { display: false, beginAtZero: true } },
          plugins: { legend: { display: false }, tooltip: { enabled: false } },
        }}
        width={width}
        height={height}
      />
    </div>
  );
}
