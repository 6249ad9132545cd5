"use client";

import { useId, useState } from "react";
import { expectedTaskAttempts, extraCallsPer1000Tasks, retryCostWithContextGrowth } from "../../isomorphic/stats";
import { td, th } from "../ui";
import { formatCount, formatNumber, formatPercent, formatUsd } from "../../contracts/format-number";

/** Reference points (docs/attempt-inflation.md), computed by the same functions as the simulator. */
const REFERENCES = [
  { p: 0.06, k: 6 },
  { p: 0.2, k: 6 },
];

function Slider({
  label,
  unit,
  value,
  min,
  max,
  step,
  onChange,
  format,
  testId,
}: {
  label: string;
  unit: string;
  value: number;
  min: number;
  max: number;
  step: number;
  onChange: (v: number) => void;
  format: (v: number) => string;
  testId: string;
}) {
  const id = useId();
  const clamp = (v: number) => Math.min(max, Math.max(min, v));
  return (
    <div>
      <div className="flex items-center justify-between gap-2">
        <label htmlFor={id} className="font-medium text-slate-800">
          {label} <span className="font-normal text-slate-500">({unit})</span>
        </label>
        <input
          id={id}
          type="number"
          data-testid={testId}
          min={min}
          max={max}
          step={step}
          value={Number(value.toFixed(6))}
          onChange={(e) => {
            const v = Number(e.target.value);
            if (e.target.value !== "" && Number.isFinite(v)) onChange(clamp(v));
          }}
          className="w-24 rounded-md border-0 px-2 py-1 text-right tabular-nums text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 focus:outline-none focus:ring-2 focus:ring-indigo-600"
        />
      </div>
      <input
        type="range"
        aria-label={`${label} slider`}
        aria-valuetext={format(value)}
        min={min}
        max={max}
        step={step}
        value={value}
        onChange={(e) => onChange(Number(e.target.value))}
        className="mt-2 w-full accent-indigo-600"
      />
      <div className="flex justify-between text-[11px] tabular-nums text-slate-500">
        <span>{format(min)}</span>
        <span>{format(max)}</span>
      </div>
    </div>
  );
}

/**
 * What retries cost: attempts k/(1−p) per task, and the task's cost when every model call,
 * invalid ones included, re-reads a context that grows by g per call.
 */
export function WhatIfSimulator({ initial }: { initial: { ratePct: number; k: number; costPerCall: number; growthPct: number } }) {
  const [ratePct, setRatePct] = useState(initial.ratePct);
  const [k, setK] = useState(initial.k);
  const [cost, setCost] = useState(initial.costPerCall);
  const [growthPct, setGrowthPct] = useState(initial.growthPct);
  const costMax = Math.max(0.05, Number((initial.costPerCall * 4).toPrecision(1)));

  const p = ratePct / 100;
  const r = retryCostWithContextGrowth({ p, callsPerTask: k, costPerCall: cost, contextGrowthPerCall: growthPct / 100 });
  const extra = r.attempts - k;
  const extraShare = r.costWithoutRetries > 0 ? r.extraCost / r.costWithoutRetries : null;

  return (
    <div className="grid grid-cols-1 gap-8 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
      <div className="space-y-5">
        <Slider label="Invalid rate" unit="%" value={ratePct} min={0} max={50} step={0.5} onChange={setRatePct} format={(v) => `${v}%`} testId="sim-rate" />
        <Slider label="Calls per task" unit="k" value={k} min={1} max={30} step={1} onChange={(v) => setK(Math.round(v))} format={String} testId="sim-k" />
        <Slider
          label="Cost per call"
          unit="$, first call"
          value={cost}
          min={0}
          max={costMax}
          step={0.0005}
          onChange={setCost}
          format={(v) => formatUsd(v)}
          testId="sim-cost"
        />
        <Slider
          label="Context growth per call"
          unit="%"
          value={growthPct}
          min={0}
          max={30}
          step={1}
          onChange={setGrowthPct}
          format={(v) => `${v}%`}
          testId="sim-growth"
        />
      </div>

      <div className="space-y-5">
        <dl className="grid grid-cols-2 gap-3" aria-live="polite">
          <div className="rounded-md bg-indigo-50 px-3 py-2.5">
            <dt className="text-xs text-indigo-900">Attempts per task, k/(1−p)</dt>
            <dd className="text-2xl font-semibold tabular-nums text-indigo-950" data-testid="sim-attempts">
              {formatNumber(r.attempts)}
            </dd>
          </div>
          <div className="rounded-md bg-slate-50 px-3 py-2.5">
            <dt className="text-xs text-slate-600">Extra model calls</dt>
            <dd className="text-2xl font-semibold tabular-nums text-slate-900" data-testid="sim-extra">
              {formatNumber(extra)}
            </dd>
            <dd className="text-xs tabular-nums text-slate-500">{formatCount(extraCallsPer1000Tasks(p, k))} per 1,000 tasks</dd>
          </div>
          <div className="rounded-md bg-slate-50 px-3 py-2.5">
            <dt className="text-xs text-slate-600">Cost per task without retries</dt>
            <dd className="text-lg font-semibold tabular-nums text-slate-900" data-testid="sim-cost-without">
              {formatUsd(r.costWithoutRetries)}
            </dd>
          </div>
          <div className="rounded-md bg-red-50 px-3 py-2.5">
            <dt className="text-xs text-red-900">Cost per task with retries</dt>
            <dd className="text-lg font-semibold tabular-nums text-red-950" data-testid="sim-cost-with">
              {formatUsd(r.costWithRetries)}
            </dd>
            <dd className="text-xs tabular-nums text-red-800">
              +{formatUsd(r.extraCost)}
              {extraShare !== null && ` (+${formatPercent(extraShare)})`}
            </dd>
          </div>
        </dl>
        <p className="text-xs text-slate-500">
          Call i of a task costs c·(1+g)<sup>i−1</sup>: each call re-reads a context that has grown, invalid calls included. The figures are at the expected
          number of attempts; with growth above 0 the true average cost is a little higher.
        </p>
        <div>
          <h3 className="mb-1 text-xs font-medium uppercase tracking-wide text-slate-500">Reference points</h3>
          <table
            className="min-w-full divide-y divide-slate-200 text-left max-sm:[&_td]:px-1.5 max-sm:[&_th]:whitespace-normal max-sm:[&_th]:px-1.5"
            aria-label="Reference points"
            data-testid="sim-references"
          >
            <thead>
              <tr>
                <th className={th}>Invalid rate</th>
                <th className={`${th} text-right`}>k</th>
                <th className={`${th} text-right`}>Attempts</th>
                <th className={`${th} text-right`} title="Extra calls per 1,000 tasks">
                  Extra / 1,000
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {REFERENCES.map((ref) => (
                <tr key={ref.p}>
                  <td className={`${td} tabular-nums`}>{formatPercent(ref.p, { digits: 0 })}</td>
                  <td className={`${td} text-right tabular-nums`}>{ref.k}</td>
                  <td className={`${td} text-right font-medium tabular-nums`}>{formatNumber(expectedTaskAttempts(ref.p, ref.k))}</td>
                  <td className={`${td} text-right tabular-nums`}>{formatCount(extraCallsPer1000Tasks(ref.p, ref.k))}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </div>
  );
}
