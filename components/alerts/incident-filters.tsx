import Link from "next/link";
import { FilterField, OptionSelect } from "../filters/fields";
import { FilterForm } from "../filters/filter-form";
import { Select } from "../ui";

/**
 * Filters of the incident list, kept in the URL (?state=&ruleId=&tool=&model=). A GET form:
 * without JavaScript "Apply" submits it; with it, choosing applies at once.
 */
export function IncidentFilters({
  action,
  current,
  rules,
  tools,
  models,
}: {
  action: string;
  current: { state?: string; ruleId?: string; tool?: string; model?: string };
  rules: { value: string; label: string }[];
  tools: (string | null)[];
  models: (string | null)[];
}) {
  const field = "min-w-40 flex-1";
  const active = Object.values(current).some(Boolean);

  return (
    <FilterForm action={action} label="Incident filters" className="flex flex-wrap items-end gap-3">
      <FilterField label="State" htmlFor="f-state" look="caps" className={field}>
        <Select id="f-state" name="state" defaultValue={current.state ?? ""}>
          <option value="">Any state</option>
          <option value="firing">Firing</option>
          <option value="acknowledged">Acknowledged</option>
          <option value="resolved">Resolved</option>
        </Select>
      </FilterField>
      <FilterField label="Rule" htmlFor="f-rule" look="caps" className={field}>
        <Select id="f-rule" name="ruleId" defaultValue={current.ruleId ?? ""}>
          <option value="">Any rule</option>
          {rules.map((r) => (
            <option key={r.value} value={r.value}>
              {r.label}
            </option>
          ))}
        </Select>
      </FilterField>
      <FilterField label="Tool" htmlFor="f-tool" look="caps" className={field}>
        <OptionSelect id="f-tool" name="tool" values={tools} current={current.tool} all="Any tool" />
      </FilterField>
      <FilterField label="Model" htmlFor="f-model" look="caps" className={field}>
        <OptionSelect id="f-model" name="model" values={models} current={current.model} all="Any model" />
      </FilterField>
      <noscript>
        <button type="submit" className="rounded-md bg-indigo-600 px-3 py-2 font-medium text-white">
          Apply
        </button>
      </noscript>
      {active && (
        <Link href={action} className="py-2 text-sm font-medium text-indigo-700 hover:underline">
          Clear filters
        </Link>
      )}
    </FilterForm>
  );
}
