import { labelElements, useFloorLabels } from "../state/overlays";
import { useSession } from "../state/session";

export function LabelLayer() {
  const groups = useFloorLabels((s) => s.groups);
  // Floor labels belong to the canvas: the elevation view covers it, so they go too (the projector sets
  // each label's own visibility, which a hidden parent does not override).
  const hidden = useSession((s) => s.view === "elevation");
  const labels = Object.values(groups).flat();
  return (
    <div className="label-layer" aria-hidden={false} style={hidden ? { display: "none" } : undefined}>
      {labels.map((l) => (
        <div
          key={l.key}
          className={`floor-label ${l.className}`}
          title={l.title}
          data-testid={l.data?.testid}
          {...Object.fromEntries(
            Object.entries(l.data ?? {})
              .filter(([k]) => k !== "testid")
              .map(([k, v]) => [`data-${k}`, v]),
          )}
          ref={(el) => {
            if (el) labelElements.set(l.key, el);
            else labelElements.delete(l.key);
          }}
        >
          {l.text}
        </div>
      ))}
    </div>
  );
}
