import { labelElements, useFloorLabels } from "../state/overlays";

export function LabelLayer() {
  const groups = useFloorLabels((s) => s.groups);
  const labels = Object.values(groups).flat();
  return (
    <div className="label-layer" aria-hidden={false}>
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
