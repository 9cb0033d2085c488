export function WiringPanel() {
  return (
    <section className="panel-section">
      <h2>Wiring</h2>
    </section>
  );
}
