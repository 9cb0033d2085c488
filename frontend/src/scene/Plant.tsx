/**
 * A structured plan's passive plant in 3D (issue 29): its panels as thin boxes at their U (ONE
 * InstancedMesh; a click opens the panel's port map), its trunks as one tube each along the tray
 * route (ONE merged mesh, not a line per fibre), and the focused link's chain lit: its panels, its
 * trunk and its cords (the link's own route is lit by Cables). Reads the server's plant (state/plant.ts),
 * which it loads when a structured plan is shown and a link is focused.
 */
import { useThree, type ThreeEvent } from "@react-three/fiber";
import { useEffect, useLayoutEffect, useMemo, useRef } from "react";
import * as THREE from "three";
import { mergeGeometries } from "three/examples/jsm/utils/BufferGeometryUtils.js";
import { useRecords } from "../state/editor";
import {
  chainParts,
  isStructured,
  PLANT_COLOURS,
  rackOfName,
  reportPlant,
  usePlant,
  type ChainRead,
  type PlantRead,
} from "../state/plant";
import { useSession } from "../state/session";
import { useWiring, type CableSet } from "../state/wiring";
import { request } from "../sync/http";
import {
  carrierIndex,
  devicePoint,
  findRack,
  panelBox,
  rackIndex,
  routeOf,
  trunkPath,
  trunkRadius,
  tubeGeometry,
} from "./plantGeometry";
import type { RackPlacement } from "./selectors";

const PANEL_COLOUR = PLANT_COLOURS.panel.colour;
const TRUNK_COLOUR = PLANT_COLOURS.trunk.colour;
const CHAIN_COLOUR = PLANT_COLOURS.chain.colour;

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Reads the plant of the structured plan on screen, and the chain of the focused link. */
function usePlantLoader(): void {
  const plan = useWiring((s) => s.plan);
  const cables = useWiring((s) => s.cables);
  const focus = useWiring((s) => s.focus);
  const structuredId = plan && isStructured(plan.spec) ? plan.id : null;
  useEffect(() => {
    usePlant.setState({
      planId: structuredId,
      plant: null,
      error: null,
      chain: null,
      chainError: null,
      openPanel: null,
    });
    if (structuredId === null) return;
    let live = true;
    request<PlantRead>("GET", `/wiring-plans/${structuredId}/plant`).then(
      (plant) => live && usePlant.setState({ plant }),
      (e: unknown) => live && usePlant.setState({ error: `The plant could not be read: ${message(e)}` }),
    );
    return () => {
      live = false;
    };
  }, [structuredId]);
  const cableId = cables && focus !== null && cables.planId === structuredId ? cables.buffers.cable_ids[focus] : null;
  useEffect(() => {
    usePlant.setState({ chain: null, chainError: null });
    if (structuredId === null || !cableId) return;
    let live = true;
    request<ChainRead>("GET", `/wiring-plans/${structuredId}/cables/${encodeURIComponent(cableId)}/chain`).then(
      (chain) => live && usePlant.setState({ chain }),
      (e: unknown) => live && usePlant.setState({ chainError: message(e) }),
    );
    return () => {
      live = false;
    };
  }, [structuredId, cableId]);
}

interface TrunkDrawing {
  id: string;
  points: THREE.Vector3[];
  radius: number;
  routed: boolean;
}

function trunkDrawings(plant: PlantRead, racks: Map<string, RackPlacement>, cables: CableSet | null): TrunkDrawing[] {
  const panels = new Map(plant.panels.map((p) => [p.panel_id, p]));
  let top = 0;
  for (const p of racks.values()) top = Math.max(top, p.h);
  const carrier = cables ? carrierIndex(cables) : null;
  const out: TrunkDrawing[] = [];
  for (const t of plant.trunks) {
    const pa = panels.get(t.a_end);
    const pb = panels.get(t.b_end);
    const ra = pa && findRack(racks, pa.rack);
    const rb = pb && findRack(racks, pb.rack);
    if (!pa || !pb || !ra || !rb) continue;
    const ba = panelBox(ra, pa.u);
    const bb = panelBox(rb, pb.u);
    const via = carrier ? carrier(pa.rack, pb.rack) : null;
    const route = cables && via !== null ? routeOf(cables, via) : null;
    const { points, routed } = trunkPath(
      new THREE.Vector3(ba.x, ba.y, ba.z),
      new THREE.Vector3(bb.x, bb.y, bb.z),
      route,
      Math.max(ra.h, rb.h),
      top + 0.3,
    );
    out.push({ id: t.item_id, points, radius: trunkRadius(t.fibres), routed });
  }
  return out;
}

function mergedTubes(drawings: readonly TrunkDrawing[], grow = 1): THREE.BufferGeometry | null {
  if (!drawings.length) return null;
  const parts = drawings.map((d) => tubeGeometry(d.points, d.radius * grow)).filter((g) => g.getAttribute("position"));
  if (!parts.length) return null;
  const merged = mergeGeometries(parts);
  for (const p of parts) p.dispose();
  return merged;
}

/** Cords of the chain: device port to its panel, through the point above the rack when they are apart. */
function cordLines(
  cords: { aEnd: string; bEnd: string }[],
  panelAt: Map<string, THREE.Vector3>,
  racks: Map<string, RackPlacement>,
): THREE.BufferGeometry | null {
  const pos: number[] = [];
  for (const c of cords) {
    const a = panelAt.get(c.aEnd) ?? devicePoint(racks, c.aEnd);
    const b = panelAt.get(c.bEnd) ?? devicePoint(racks, c.bEnd);
    if (!a || !b) continue;
    const ra = findRack(racks, rackOfName(c.aEnd));
    const up = Math.max(a.y, b.y, ra?.h ?? 0) + 0.15;
    const pts =
      Math.hypot(a.x - b.x, a.z - b.z) < 0.05
        ? [a, b]
        : [a, new THREE.Vector3(a.x, up, a.z), new THREE.Vector3(b.x, up, b.z), b];
    for (let k = 1; k < pts.length; k++) {
      const p0 = pts[k - 1];
      const p1 = pts[k];
      if (p0 && p1) pos.push(p0.x, p0.y, p0.z, p1.x, p1.y, p1.z);
    }
  }
  if (!pos.length) return null;
  const g = new THREE.BufferGeometry();
  g.setAttribute("position", new THREE.Float32BufferAttribute(pos, 3));
  return g;
}

const tmp = new THREE.Object3D();
const colour = new THREE.Color();
const PANEL_GEOMETRY = new THREE.BoxGeometry(1, 1, 1);

export function Plant() {
  usePlantLoader();
  const plant = usePlant((s) => s.plant);
  const planId = usePlant((s) => s.planId);
  const chain = usePlant((s) => s.chain);
  const cables = useWiring((s) => s.cables);
  const records = useRecords();
  const { invalidate } = useThree();
  const panelsRef = useRef<THREE.InstancedMesh>(null);

  const racks = useMemo(() => rackIndex(records), [records]);
  // Panels drawn: those whose rack is in the hall on screen.
  const drawn = useMemo(() => {
    if (!plant) return [];
    return plant.panels.flatMap((p) => {
      const rack = findRack(racks, p.rack);
      return rack ? [{ panel: p, box: panelBox(rack, p.u) }] : [];
    });
  }, [plant, racks]);
  const panelAt = useMemo(
    () => new Map(drawn.map((d) => [d.panel.panel_id, new THREE.Vector3(d.box.x, d.box.y, d.box.z)])),
    [drawn],
  );
  // The tubes borrow the plan's routes: built once the plan's cables are on screen.
  const trunks = useMemo(
    () => (plant ? trunkDrawings(plant, racks, cables && cables.planId === planId ? cables : null) : []),
    [plant, racks, cables, planId],
  );
  const trunkGeometry = useMemo(() => mergedTubes(trunks), [trunks]);
  const parts = useMemo(
    () => (chain && plant ? chainParts(chain.steps, new Set(plant.panels.map((p) => p.panel_id))) : null),
    [chain, plant],
  );
  const chainTrunks = useMemo(() => {
    if (!parts) return null;
    const ids = new Set(parts.trunks);
    return mergedTubes(
      trunks.filter((t) => ids.has(t.id)),
      1.4,
    );
  }, [parts, trunks]);
  const cords = useMemo(() => (parts ? cordLines(parts.cords, panelAt, racks) : null), [parts, panelAt, racks]);

  useEffect(() => () => trunkGeometry?.dispose(), [trunkGeometry]);
  useEffect(() => () => chainTrunks?.dispose(), [chainTrunks]);
  useEffect(() => () => cords?.dispose(), [cords]);

  useLayoutEffect(() => {
    const mesh = panelsRef.current;
    if (!mesh) return;
    const lit = new Set(parts?.panels ?? []);
    drawn.forEach((d, i) => {
      tmp.position.set(d.box.x, d.box.y, d.box.z);
      tmp.rotation.set(0, d.box.yaw, 0);
      tmp.scale.set(d.box.w, d.box.h, d.box.d);
      tmp.updateMatrix();
      mesh.setMatrixAt(i, tmp.matrix);
      mesh.setColorAt(i, colour.set(lit.has(d.panel.panel_id) ? CHAIN_COLOUR : PANEL_COLOUR));
    });
    mesh.count = drawn.length;
    mesh.instanceMatrix.needsUpdate = true;
    if (mesh.instanceColor) mesh.instanceColor.needsUpdate = true;
    mesh.computeBoundingSphere();
    invalidate();
  }, [drawn, parts, invalidate]);

  useEffect(() => {
    invalidate();
    if (planId === null || !plant) {
      reportPlant(null);
      return;
    }
    reportPlant({
      planId,
      panels: drawn.length,
      trunks: trunks.length,
      trunksRouted: trunks.filter((t) => t.routed).length,
      trunksStraight: trunks.filter((t) => !t.routed).length,
      chain:
        chain && parts
          ? { cableId: chain.cable_id, panels: parts.panels, trunks: parts.trunks, cords: parts.cords.length }
          : null,
      panelPoint: (id) => {
        const d = drawn.find((x) => x.panel.panel_id === id);
        return d ? { x: d.box.x * 1000, y: d.box.z * 1000, z: d.box.y * 1000 } : null;
      },
    });
  }, [planId, plant, drawn, trunks, chain, parts, invalidate]);

  if (!plant) return null;
  const openMap = (e: ThreeEvent<MouseEvent>) => {
    const d = e.instanceId === undefined ? undefined : drawn[e.instanceId];
    // Only a panel in sight: a click on a rack (or anything) in front of it is that thing's.
    if (!d || e.intersections[0]?.eventObject !== e.eventObject) return;
    e.stopPropagation();
    usePlant.setState({ openPanel: d.panel.panel_id });
    useSession.setState({ panel: "wiring" });
  };
  return (
    <group>
      <instancedMesh
        key={drawn.length}
        ref={panelsRef}
        args={[PANEL_GEOMETRY, undefined, Math.max(1, drawn.length)]}
        frustumCulled={false}
        // The panel, not the rack behind it, takes the click.
        onPointerDown={(e) => e.button === 0 && e.stopPropagation()}
        onClick={openMap}
      >
        <meshLambertMaterial />
      </instancedMesh>
      {trunkGeometry && (
        <mesh geometry={trunkGeometry} raycast={() => null}>
          <meshLambertMaterial color={TRUNK_COLOUR} transparent opacity={0.85} />
        </mesh>
      )}
      {chainTrunks && (
        <mesh geometry={chainTrunks} raycast={() => null} renderOrder={11}>
          <meshLambertMaterial color={CHAIN_COLOUR} />
        </mesh>
      )}
      {cords && (
        <lineSegments geometry={cords} raycast={() => null} frustumCulled={false} renderOrder={12}>
          <lineBasicMaterial color={CHAIN_COLOUR} depthTest={false} />
        </lineSegments>
      )}
    </group>
  );
}
