// Filled in by issue 6.
export default function Bookmarks() {
  return null;
}
