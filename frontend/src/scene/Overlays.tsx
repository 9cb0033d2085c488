/** Aisles, row labels and the gesture previews (draw, box select). */
import { Html } from "@react-three/drei";
import { useThree } from "@react-three/fiber";
import { useEffect, useRef } from "react";
import * as THREE from "three";
import { MIN_AISLE_MM, type Aisle } from "../model/geometry";
import { formatLength } from "../model/units";
import { live } from "../tools/live";
import type { Palette } from "../ui/palette";

export function Aisles({ aisles, palette, labels }: { aisles: Aisle[]; palette: Palette; labels: boolean }) {
  return (
    <group>
      {aisles.map((a) => {
        const w = (a.box.x1 - a.box.x0) / 1000;
        const d = (a.box.y1 - a.box.y0) / 1000;
        const cx = (a.box.x0 + a.box.x1) / 2000;
        const cz = (a.box.y0 + a.box.y1) / 2000;
        const c = palette[a.kind];
        return (
          <group key={`${a.rowA}|${a.rowB}`}>
            <mesh position={[cx, 0.004, cz]} rotation-x={-Math.PI / 2} raycast={() => null}>
              <planeGeometry args={[w, d]} />
              <meshBasicMaterial color={c} transparent opacity={a.tooNarrow ? 0.55 : 0.3} depthWrite={false} />
            </mesh>
            {labels && (
              <Html position={[cx, 0.05, cz]} center zIndexRange={[10, 0]} style={{ pointerEvents: "none" }}>
                <div
                  className={`aisle-label aisle-${a.kind}${a.tooNarrow ? " too-narrow" : ""}`}
                  data-testid="aisle-label"
                  data-kind={a.kind}
                  data-width-mm={a.widthMm}
                  title={a.tooNarrow ? `narrower than the ${formatLength(MIN_AISLE_MM[a.kind])} minimum` : undefined}
                >
                  {a.kind === "mixed" ? "Mixed aisle" : a.kind === "cold" ? "Cold aisle" : "Hot aisle"} {formatLength(a.widthMm)}
                  {a.tooNarrow && <span className="warn"> ⚠ too narrow (min {formatLength(MIN_AISLE_MM[a.kind])})</span>}
                </div>
              </Html>
            )}
          </group>
        );
      })}
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

export function RowLabels({ labels }: { labels: RowLabel[] }) {
  return (
    <group>
      {labels.map((l) => (
        <Html key={l.id} position={[l.x, 0.05, l.z]} center zIndexRange={[10, 0]} style={{ pointerEvents: "none" }}>
          <div className={`row-label${l.selected ? " selected" : ""}`}>{l.name}</div>
        </Html>
      ))}
    </group>
  );
}

/** The row being drawn: a ghost box and a readout (count, length), updated from the live store. */
export function DrawPreview({ palette, depthM }: { palette: Palette; depthM: number }) {
  const mesh = useRef<THREE.Mesh>(null);
  const label = useRef<HTMLDivElement>(null);
  const group = useRef<THREE.Group>(null);
  const invalidate = useThree((s) => s.invalidate);
  useEffect(
    () =>
      live.subscribe((s) => {
        const m = mesh.current;
        const g = group.current;
        if (!m || !g) return;
        const d = s.draft;
        g.visible = Boolean(d);
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
          if (label.current) {
            label.current.textContent = `${d.count} rack${d.count === 1 ? "" : "s"} · ${formatLength(d.lengthMm)} × ${formatLength(depthM * 1000)}`;
            label.current.parentElement?.style.setProperty("display", "block");
          }
          const lp = g.children[1];
          if (lp) lp.position.set(x1, 1.4, z1);
        }
        invalidate();
      }),
    [depthM, invalidate],
  );
  return (
    <group ref={group} visible={false}>
      <mesh ref={mesh} raycast={() => null}>
        <boxGeometry args={[1, 1, 1]} />
        <meshBasicMaterial color={palette.draft} transparent opacity={0.35} depthWrite={false} />
      </mesh>
      <group>
        <Html zIndexRange={[20, 0]} style={{ pointerEvents: "none" }}>
          <div className="dim-readout" data-testid="draw-readout" ref={label} />
        </Html>
      </group>
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
