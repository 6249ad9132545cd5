"use client";

import type { Chart as ChartJS, InteractionMode } from "chart.js";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, type PointerEvent, type ReactNode, type RefObject } from "react";
import type { Bucket } from "../../isomorphic/buckets";
import { formatDateTimeZoned } from "../../isomorphic/time-zone";
import { cx } from "../ui";
import { bucketRange, zoomedHref } from "./explore";
import type { Marker } from "./chart-setup";

/** A chart's data as a table: one row per bucket (or bar), one cell per series. */
export type ChartTable = {
  columns: string[];
  rows: { key: string; label: string; cells: ({ text: string; href?: string } | null)[] }[];
};

/**
 * What a click or a drag on the canvas does. A click picks the element under the pointer (as
 * chart.js finds it with `mode`) and opens `hrefAt(datasetIndex, index)`; on a time chart
 * (`labels` and `bucket` given) a drag over buckets sets the page's range to them.
 */
export type ChartPointer = {
  /** what is clicked, for the hint above the chart */
  element: "point" | "bar";
  mode: InteractionMode;
  intersect: boolean;
  hrefAt?: (datasetIndex: number, index: number) => string | undefined;
  zoom?: { labels: number[]; bucket: Bucket };
};

/** A drag shorter than this (px) is a click. */
const DRAG_PX = 6;

/**
 * The frame of every chart: the canvas (or, toggled, its data as a table a screen reader reads),
 * the click and drag handling, and the list of markers drawn on it.
 */
export function ChartFrame({
  title,
  height,
  chartRef,
  pointer,
  table,
  markers = [],
  zone = "UTC",
  testId,
  data,
  children,
}: {
  /** what the chart shows, for its label and its table's */
  title: string;
  height: number;
  chartRef: RefObject<ChartJS | null>;
  pointer?: ChartPointer;
  table: ChartTable;
  markers?: Marker[];
  zone?: string;
  testId: string;
  data?: Record<`data-${string}`, string | number>;
  children: ReactNode;
}) {
  const router = useRouter();
  const [asTable, setAsTable] = useState(false);
  const start = useRef<{ x: number } | null>(null);
  const [box, setBox] = useState<{ left: number; width: number } | null>(null);
  // set once the chart is drawn and its handlers are live (tests wait for it)
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);

  const canvasX = (e: PointerEvent) => {
    const canvas = chartRef.current?.canvas;
    return canvas ? e.clientX - canvas.getBoundingClientRect().left : 0;
  };
  const inArea = (e: PointerEvent) => {
    const chart = chartRef.current;
    if (!chart) return false;
    const rect = chart.canvas.getBoundingClientRect();
    const x = e.clientX - rect.left;
    const y = e.clientY - rect.top;
    const a = chart.chartArea;
    return x >= a.left && x <= a.right && y >= a.top && y <= a.bottom;
  };
  const indexAt = (x: number, count: number) => {
    const value = chartRef.current?.scales.x?.getValueForPixel(x) ?? 0;
    return Math.min(count - 1, Math.max(0, Math.round(value)));
  };

  const handlers = pointer && {
    onPointerDown(e: PointerEvent) {
      if (e.button !== 0 || !inArea(e)) return;
      start.current = { x: canvasX(e) };
    },
    onPointerMove(e: PointerEvent) {
      if (!start.current || !pointer.zoom) return;
      const x = canvasX(e);
      const area = chartRef.current!.chartArea;
      const clamped = Math.min(area.right, Math.max(area.left, x));
      setBox(Math.abs(clamped - start.current.x) > DRAG_PX ? { left: Math.min(clamped, start.current.x), width: Math.abs(clamped - start.current.x) } : null);
    },
    onPointerUp(e: PointerEvent) {
      const from = start.current;
      start.current = null;
      setBox(null);
      const chart = chartRef.current;
      if (!from || !chart) return;
      const x = canvasX(e);
      const zoom = pointer.zoom;
      if (zoom && Math.abs(x - from.x) > DRAG_PX) {
        const a = zoom.labels[indexAt(from.x, zoom.labels.length)]!;
        const b = zoom.labels[indexAt(x, zoom.labels.length)]!;
        router.push(zoomedHref(window.location.pathname, window.location.search, bucketRange(a, b, zoom.bucket)), { scroll: false });
        return;
      }
      const [hit] = chart.getElementsAtEventForMode(e.nativeEvent, pointer.mode, { intersect: pointer.intersect }, false);
      const href = hit && pointer.hrefAt?.(hit.datasetIndex, hit.index);
      if (href) router.push(href);
    },
    onPointerLeave() {
      start.current = null;
      setBox(null);
    },
  };

  return (
    <div data-testid={testId} data-ready={ready || undefined} {...data}>
      <div className="mb-2 flex flex-wrap items-start justify-end gap-2">
        {pointer && !asTable && (
          <p className="mr-auto text-xs text-slate-500">
            {pointer.hrefAt ? `Click a ${pointer.element} to see its calls` : ""}
            {pointer.hrefAt && pointer.zoom ? " · " : ""}
            {pointer.zoom ? "drag across to zoom into a range" : ""}
          </p>
        )}
        <button
          type="button"
          aria-pressed={asTable}
          onClick={() => setAsTable(!asTable)}
          className="rounded-md px-2 py-0.5 text-xs font-medium text-slate-600 ring-1 ring-inset ring-slate-300 hover:bg-slate-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
          data-testid="chart-table-toggle"
        >
          {asTable ? "Show chart" : "Show table"}
          <span className="sr-only"> of {title.toLowerCase()}</span>
        </button>
      </div>
      {asTable ? (
        <DataTable title={title} table={table} height={height} />
      ) : (
        <div className={cx("relative select-none", pointer?.zoom && "cursor-crosshair")} style={{ height }} {...handlers}>
          {children}
          {box && (
            <div
              aria-hidden
              data-testid="zoom-selection"
              className="pointer-events-none absolute bottom-6 top-2 rounded-sm bg-indigo-500/15 ring-1 ring-indigo-400"
              style={{ left: box.left, width: box.width }}
            />
          )}
        </div>
      )}
      {markers.length > 0 && (
        <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600" aria-label="Marked on the chart" data-testid="chart-markers">
          {markers.map((m, i) => (
            <li key={i} data-kind={m.kind ?? "schema"} className="flex items-center gap-1.5">
              <span aria-hidden className={cx("inline-block h-3 border-l-2 border-dashed", m.kind === "incident" ? "border-red-600" : "border-indigo-500")} />
              {m.label} <span className="text-slate-500">{formatDateTimeZoned(m.at, zone)}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function DataTable({ title, table, height }: { title: string; table: ChartTable; height: number }) {
  return (
    <div
      role="region"
      aria-label={`${title}: data`}
      tabIndex={0}
      className="overflow-auto focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
      style={{ maxHeight: Math.max(height, 320) }}
    >
      <table className="min-w-full text-left text-xs" data-testid="chart-table">
        <caption className="sr-only">{title}</caption>
        <thead className="sticky top-0 bg-white">
          <tr className="border-b border-slate-200">
            {table.columns.map((c, i) => (
              <th key={i} scope="col" className={cx("whitespace-nowrap px-2 py-1.5 font-medium text-slate-600", i > 0 && "text-right")}>
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {table.rows.map((row) => (
            <tr key={row.key}>
              <th scope="row" className="whitespace-nowrap px-2 py-1 font-normal text-slate-700">
                {row.label}
              </th>
              {row.cells.map((cell, i) => (
                <td key={i} className="whitespace-nowrap px-2 py-1 text-right tabular-nums text-slate-700">
                  {cell === null ? (
                    <span className="text-slate-500">–</span>
                  ) : cell.href ? (
                    <Link href={cell.href} className="text-indigo-700 hover:underline">
                      {cell.text}
                    </Link>
                  ) : (
                    cell.text
                  )}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
