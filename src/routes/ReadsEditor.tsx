// Filled in by issue 6.
export default function ReadsEditor() {
  return null;
}
