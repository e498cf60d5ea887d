import type { Config } from "@react-router/dev/config";
import { deployTarget } from "./app/lib/deploy-target";

const target = deployTarget();

export default {
  ssr: true,
  // Local builds in build/, the production build beside it in build-production/ (a build empties its
  // own folder), so the tests can serve and check both.
  buildDirectory: target === "local" ? "build" : `build-${target}`,
} satisfies Config;
