// Filled in by issue 6.
export default function MuteList() {
  return null;
}
