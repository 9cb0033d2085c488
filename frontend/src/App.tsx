import { HallScene } from "./scene/HallScene";

export function App() {
  return (
    <div className="app">
      <header className="topbar">
        <span className="brand">Loopline</span>
        <span className="subtitle">datacenter network planning</span>
      </header>
      <main className="viewport">
        <HallScene widthM={24} depthM={18} tileM={0.6} />
      </main>
    </div>
  );
}
