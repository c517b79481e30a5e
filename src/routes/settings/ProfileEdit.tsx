// Filled in by the settings work of issue 6.
export default function ProfileEditSettings() {
  return null;
}
