// Bindings an operator adds only with the setting that uses them (docs/configuration.md): wrangler
// types does not see them, because local builds and the tests' wrangler.toml do not declare them.
interface Env {
  /** Workers AI, for automatic captions when SPEECH_TO_TEXT_MODEL is set (decision 0043). */
  AI?: Ai;
}
