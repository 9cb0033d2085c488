import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [react()],
  server: {
    proxy: { "/api": process.env.LOOPLINE_API_URL ?? "http://127.0.0.1:8765" },
  },
  build: { chunkSizeWarningLimit: 2000 },
  test: { include: ["src/**/*.test.ts", "src/**/*.test.tsx"], environment: "node" },
});
