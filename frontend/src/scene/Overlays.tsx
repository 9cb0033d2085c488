/** Aisles, row labels and the gesture previews (draw, box select). */
import { useFrame, useThree } from "@react-three/fiber";
import { useEffect, useMemo, useRef } from "react";
import * as THREE from "three";
import { formatLength } from "../model/units";
import { labelElements, readoutRef, useFloorLabels } from "../state/overlays";
import type { Palette } from "../state/palette";
import type { ReportedAisle } from "../sync/validation";
import { live } from "../tools/live";

/** Every aisle of the validation report in ONE mesh (vertex colours); labels are DOM overlays. */
export function Aisles({ aisles, palette }: { aisles: ReportedAisle[]; palette: Palette }) {
  const geometry = useMemo(() => {
    const pos: number[] = [];
    const col: number[] = [];
    const c = new THREE.Color();
    for (const a of aisles) {
      c.set(palette[a.kind]);
      if (!a.tooNarrow) c.multiplyScalar(0.55);
      const [x0, x1, z0, z1] = [a.box.x0 / 1000, a.box.x1 / 1000, a.box.y0 / 1000, a.box.y1 / 1000];
      pos.push(x0, 0.004, z0, x0, 0.004, z1, x1, 0.004, z1, x0, 0.004, z0, x1, 0.004, z1, x1, 0.004, z0);
      for (let i = 0; i < 6; i++) col.push(c.r, c.g, c.b);
    }
    const g = new THREE.BufferGeometry();
    g.setAttribute("position", new THREE.Float32BufferAttribute(pos, 3));
    g.setAttribute("color", new THREE.Float32BufferAttribute(col, 3));
    return g;
  }, [aisles, palette]);
  useEffect(() => () => geometry.dispose(), [geometry]);
  return (
    <group>
      {aisles.length > 0 && (
        <mesh geometry={geometry} raycast={() => null}>
          <meshBasicMaterial vertexColors transparent opacity={0.6} depthWrite={false} side={THREE.DoubleSide} />
        </mesh>
      )}
    </group>
  );
}

export interface RowLabel {
  id: string;
  name: string;
  x: number;
  z: number;
  selected: boolean;
}

/** Projects the DOM floor labels after every rendered frame. */
export function LabelProjector() {
  const v = useMemo(() => new THREE.Vector3(), []);
  useFrame(({ camera, size }) => {
    const groups = useFloorLabels.getState().groups;
    // Errors first, then rows, then aisles: when labels would overlap, the later ones are hidden.
    const labels = [
      ...(groups.errors ?? []),
      ...(groups.rows ?? []),
      ...Object.entries(groups)
        .filter(([k]) => !["errors", "rows"].includes(k))
        .flatMap(([, ls]) => ls),
    ];
    const placed: [number, number, number, number][] = [];
    // Read every size first, then write: one layout per frame, not one per label.
    const items = labels.flatMap((l) => {
      const el = labelElements.get(l.key);
      return el ? [{ l, el, w: el.offsetWidth, h: el.offsetHeight }] : [];
    });
    for (const { l, el, w, h } of items) {
      v.set(l.x, l.y, l.z).project(camera);
      const sx = ((v.x + 1) / 2) * size.width;
      const sy = ((1 - v.y) / 2) * size.height;
      let visible = v.z < 1 && Math.abs(v.x) < 1.2 && Math.abs(v.y) < 1.2;
      if (visible) {
        const r: [number, number, number, number] = [sx - w / 2, sy - h / 2, sx + w / 2, sy + h / 2];
        if (placed.some((p) => r[0] < p[2] && p[0] < r[2] && r[1] < p[3] && p[1] < r[3])) visible = false;
        else placed.push(r);
      }
      el.style.visibility = visible ? "visible" : "hidden";
      el.style.transform = `translate(-50%, -50%) translate(${sx}px, ${sy}px)`;
    }
  });
  return null;
}

/**
 * The row being drawn: a ghost box and a readout (count, length), updated from the live store. The
 * ghost turns red, and the readout says why, when the row could not stand there (model/placement.ts);
 * a move that could not stand shows its reason by the pointer.
 */
export function DrawPreview({ palette, depthM }: { palette: Palette; depthM: number }) {
  const mesh = useRef<THREE.Mesh>(null);
  const group = useRef<THREE.Group>(null);
  const invalidate = useThree((s) => s.invalidate);
  const get = useThree((s) => s.get);
  useEffect(
    () =>
      live.subscribe((s) => {
        const m = mesh.current;
        const g = group.current;
        if (!m || !g) return;
        const d = s.draft;
        g.visible = Boolean(d);
        (m.material as THREE.MeshBasicMaterial).color.set(s.problem ? palette.draftBad : palette.draft);
        const label = readoutRef.current;
        if (label) {
          label.dataset.state = s.problem ? "blocked" : "ok";
          label.classList.toggle("blocked", Boolean(s.problem));
        }
        if (label && !d) {
          if (s.move && s.problem && s.pointer) {
            const { camera, size } = get();
            const v = new THREE.Vector3(s.pointer.x / 1000, 0.5, s.pointer.y / 1000).project(camera);
            label.textContent = s.problem.message;
            label.style.display = "block";
            label.style.transform = `translate(${((v.x + 1) / 2) * size.width + 14}px, ${((1 - v.y) / 2) * size.height - 34}px)`;
          } else label.style.display = "none";
        }
        if (d) {
          const ux = d.direction === 0 ? 1 : d.direction === 180 ? -1 : 0;
          const uy = d.direction === 90 ? 1 : d.direction === 270 ? -1 : 0;
          const nx = -uy;
          const ny = ux;
          const len = d.lengthMm / 1000;
          const x0 = d.xMm / 1000;
          const z0 = d.yMm / 1000;
          const x1 = x0 + ux * len + nx * depthM;
          const z1 = z0 + uy * len + ny * depthM;
          m.position.set((x0 + x1) / 2, 0.6, (z0 + z1) / 2);
          m.scale.set(Math.abs(x1 - x0), 1.2, Math.abs(z1 - z0));
          if (label) {
            const { camera, size } = get();
            const v = new THREE.Vector3(x1, 1.3, z1).project(camera);
            label.textContent = `${d.count} rack${d.count === 1 ? "" : "s"} · ${formatLength(d.lengthMm)} × ${formatLength(depthM * 1000)}${s.problem ? ` — ${s.problem.message}` : ""}`;
            label.style.display = "block";
            label.style.transform = `translate(${((v.x + 1) / 2) * size.width + 10}px, ${((1 - v.y) / 2) * size.height - 28}px)`;
          }
        }
        invalidate();
      }),
    [depthM, invalidate, get, palette],
  );
  return (
    <group ref={group} visible={false}>
      <mesh ref={mesh} raycast={() => null}>
        <boxGeometry args={[1, 1, 1]} />
        <meshBasicMaterial color={palette.draft} transparent opacity={0.35} depthWrite={false} />
      </mesh>
    </group>
  );
}

export function BoxPreview({ palette }: { palette: Palette }) {
  const mesh = useRef<THREE.Mesh>(null);
  const invalidate = useThree((s) => s.invalidate);
  useEffect(
    () =>
      live.subscribe((s) => {
        const m = mesh.current;
        if (!m) return;
        m.visible = Boolean(s.box);
        if (s.box) {
          const b = s.box;
          m.position.set((b.x0 + b.x1) / 2000, 0.01, (b.y0 + b.y1) / 2000);
          m.scale.set(Math.max(0.001, (b.x1 - b.x0) / 1000), 1, Math.max(0.001, (b.y1 - b.y0) / 1000));
        }
        invalidate();
      }),
    [invalidate],
  );
  return (
    <mesh ref={mesh} visible={false} raycast={() => null}>
      <boxGeometry args={[1, 0.02, 1]} />
      <meshBasicMaterial color={palette.box} transparent opacity={0.25} depthWrite={false} />
    </mesh>
  );
}
