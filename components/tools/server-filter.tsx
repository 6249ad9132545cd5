import { FilterField, NoScriptApply, OptionSelect } from "../filters/fields";
import { FilterForm } from "../filters/filter-form";

/** The tools page's filter by MCP server: a select of the servers that feed the project (components/tools/servers.ts), keeping the time range. */
export function ServerFilter({
  action,
  servers,
  current,
  keep,
}: {
  action: string;
  servers: string[];
  current: string | undefined;
  keep: Record<string, string | undefined>;
}) {
  return (
    <FilterForm action={action} label="Filter tools" className="flex items-end gap-2">
      {Object.entries(keep).map(([name, value]) => value !== undefined && <input key={name} type="hidden" name={name} value={value} />)}
      <FilterField label="MCP server" htmlFor="tools-server">
        <OptionSelect id="tools-server" name="server" values={servers} current={current} all="All servers and sources" className="w-64" />
      </FilterField>
      <NoScriptApply />
    </FilterForm>
  );
}
