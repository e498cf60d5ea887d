import type { Config } from "@react-router/dev/config";
import { deployTarget } from "./app/lib/deploy-target";

const target = deployTarget();

export default {
  ssr: true,
  // Local builds in build/, deployed ones beside it (build/production, build/preview), so the tests
  // can check a production build next to the one they serve.
  buildDirectory: target === "local" ? "build" : `build/${target}`,
} satisfies Config;
