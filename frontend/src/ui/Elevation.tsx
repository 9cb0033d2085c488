/** Row elevation: the front view of one row — racks side by side, U scale, logical racks, servers, ToRs. */
import type { ReactElement } from "react";
import { isRow, racksOf, rowsOf, type RackRecord } from "../model/records";
import { useRecords } from "../state/editor";
import { useSession } from "../state/session";

const U_PX = 11;
const RACK_PX = 92;
const GAP = 8;
const LEFT = 34;
const TOP = 28;

function RackColumn({
  rack,
  x,
  selected,
  onSelect,
}: {
  rack: RackRecord;
  x: number;
  selected: boolean;
  onSelect: () => void;
}) {
  const H = rack.rackType.heightU;
  const y = (u: number, h = 1) => TOP + (H - (u - 1) - h) * U_PX;
  const items: ReactElement[] = [];
  for (const f of rack.fabricSwitches) {
    items.push(
      <g key={`f${f.name}`}>
        <rect
          className="el-fabric"
          x={x + 4}
          y={y(f.u, f.heightU) + 0.5}
          width={RACK_PX - 8}
          height={f.heightU * U_PX - 1}
        >
          <title>{`${rack.name} U${f.u}: ${f.role} ${f.name}`}</title>
        </rect>
        <text className="el-tor-label" x={x + RACK_PX / 2} y={y(f.u, f.heightU) + U_PX - 2.5} textAnchor="middle">
          {f.role} {f.name} · U{f.u}
        </text>
      </g>,
    );
  }
  let u = 1;
  for (let l = 0; l < (rack.role === "compute" ? rack.logicalRacks : 0); l++) {
    const servers = rack.serversPerLogicalRack;
    const below = rack.torPosition === "bottom" ? 0 : rack.torPosition === "middle" ? Math.floor(servers / 2) : servers;
    const torU = u + below * rack.serverModel.heightU;
    const lrH = servers * rack.serverModel.heightU + rack.torModel.heightU;
    items.push(
      <rect
        key={`lr${l}`}
        className={`el-lr el-lr-${l % 2}`}
        x={x + 2}
        y={y(u, lrH)}
        width={RACK_PX - 4}
        height={lrH * U_PX}
      />,
    );
    let su = u;
    for (let s = 0; s < servers; s++) {
      if (su === torU) su += rack.torModel.heightU;
      items.push(
        <rect
          key={`s${l}.${s}`}
          className="el-server"
          x={x + 6}
          y={y(su, rack.serverModel.heightU) + 1}
          width={RACK_PX - 12}
          height={rack.serverModel.heightU * U_PX - 2}
        >
          <title>{`${rack.name} U${su}: server (${rack.serverModel.name}, p = ${rack.portsUsed})`}</title>
        </rect>,
      );
      su += rack.serverModel.heightU;
    }
    items.push(
      <g key={`t${l}`}>
        <rect
          className="el-tor"
          x={x + 4}
          y={y(torU, rack.torModel.heightU) + 0.5}
          width={RACK_PX - 8}
          height={rack.torModel.heightU * U_PX - 1}
        >
          <title>{`${rack.name} U${torU}: ToR ${rack.torModel.name}`}</title>
        </rect>
        <text
          className="el-tor-label"
          x={x + RACK_PX / 2}
          y={y(torU, rack.torModel.heightU) + U_PX - 2.5}
          textAnchor="middle"
        >
          ToR L{l + 1} · U{torU}
        </text>
      </g>,
    );
    u += lrH;
  }
  return (
    <g className={`el-rack${selected ? " selected" : ""}`} onClick={onSelect} data-rack={rack.name}>
      <rect className="el-frame" x={x} y={TOP} width={RACK_PX} height={H * U_PX} />
      {items}
      <text className="el-name" x={x + RACK_PX / 2} y={TOP - 8} textAnchor="middle">
        {rack.name}
        {rack.portFace === "rear" ? " (rear ports)" : ""}
      </text>
    </g>
  );
}

export function Elevation() {
  const records = useRecords();
  const rowId = useSession((s) => s.elevationRowId);
  const selection = useSession((s) => s.selection);
  const rows = rowsOf(records);
  const row = (rowId && isRow(records[rowId]) ? records[rowId] : rows[0]) ?? null;
  if (!row) return <div className="elevation empty">No rows yet: draw one in the plan view (press 2, then D).</div>;
  const racks = racksOf(records, row.id);
  const H = Math.max(...racks.map((r) => r.rackType.heightU), 42);
  const width = LEFT + racks.length * (RACK_PX + GAP) + 20;
  const height = TOP + H * U_PX + 30;
  return (
    <div className="elevation" data-testid="elevation">
      <div className="elevation-head">
        <label>
          Row{" "}
          <select
            value={row.id}
            onChange={(e) => useSession.setState({ elevationRowId: e.target.value })}
            data-testid="elevation-row"
          >
            {rows.map((r) => (
              <option key={r.id} value={r.id}>
                {r.name}
              </option>
            ))}
          </select>
        </label>
        <span className="muted">
          seen from its front ({row.front} side) · {racks.length} racks · U counted from the bottom
        </span>
      </div>
      <svg width={width} height={height} role="img" aria-label={`Elevation of row ${row.name}`}>
        {Array.from({ length: H }, (_, i) => i + 1)
          .filter((u) => u === 1 || u % 5 === 0)
          .map((u) => (
            <text key={u} className="el-u" x={LEFT - 6} y={TOP + (H - u) * U_PX + U_PX - 2} textAnchor="end">
              {u}
            </text>
          ))}
        {racks.map((rack, i) => (
          <RackColumn
            key={rack.id}
            rack={rack}
            x={LEFT + i * (RACK_PX + GAP)}
            selected={selection.includes(rack.id) || selection.includes(row.id)}
            onSelect={() => useSession.setState({ selection: [rack.id] })}
          />
        ))}
      </svg>
    </div>
  );
}
