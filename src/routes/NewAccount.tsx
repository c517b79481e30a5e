// Filled in by issue 6.
export default function NewAccount() {
  return null;
}
