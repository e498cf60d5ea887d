import { useFetchers, useNavigation } from "react-router";

/** A bar at the top while a navigation or a submission is in flight. */
export function ProgressBar() {
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const busy = navigation.state !== "idle" || fetchers.some((f) => f.state !== "idle");
  return busy ? <div className="progress-bar" role="progressbar" aria-label="Loading" data-testid="progress-bar" /> : null;
}
