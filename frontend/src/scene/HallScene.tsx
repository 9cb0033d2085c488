import { Grid, OrbitControls } from "@react-three/drei";
import { Canvas } from "@react-three/fiber";

interface HallSceneProps {
  widthM: number;
  depthM: number;
  tileM: number;
}

/** The hall floor with its tile grid; rows and racks are drawn on top of it. */
export function HallScene({ widthM, depthM, tileM }: HallSceneProps) {
  return (
    <Canvas
      data-testid="hall-canvas"
      frameloop="demand"
      camera={{ position: [widthM * 0.9, Math.max(widthM, depthM) * 0.8, depthM * 1.2], fov: 45 }}
      // Tests read pixels back from the canvas.
      gl={{ preserveDrawingBuffer: true, antialias: true }}
    >
      <color attach="background" args={["#0f172a"]} />
      <ambientLight intensity={0.7} />
      <directionalLight position={[10, 20, 10]} intensity={0.8} />
      <mesh rotation-x={-Math.PI / 2} position={[widthM / 2, 0, depthM / 2]}>
        <planeGeometry args={[widthM, depthM]} />
        <meshStandardMaterial color="#cbd5e1" />
      </mesh>
      <Grid
        position={[widthM / 2, 0.002, depthM / 2]}
        args={[widthM, depthM]}
        cellSize={tileM}
        sectionSize={tileM * 5}
        cellColor="#94a3b8"
        sectionColor="#64748b"
        fadeDistance={200}
      />
      <OrbitControls target={[widthM / 2, 0, depthM / 2]} makeDefault />
    </Canvas>
  );
}
