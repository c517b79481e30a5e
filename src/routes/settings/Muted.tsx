// Filled in by the settings work of issue 6.
export default function MutedSettings() {
  return null;
}
