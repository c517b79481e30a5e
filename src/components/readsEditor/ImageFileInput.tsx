import type { Ref } from 'react';

/** The hidden file picker behind an "upload image" button; each pick is handed on once, then cleared. */
export function ImageFileInput({ ref, onFile }: { ref: Ref<HTMLInputElement>; onFile: (file: File) => void }) {
  return (
    <input
      ref={ref}
      type="file"
      accept="image/*"
      hidden
      tabIndex={-1}
      aria-hidden="true"
      onChange={(e) => {
        const file = e.target.files?.[0];
        // Cleared so picking the same file again still fires a change.
        e.target.value = '';
        if (file) onFile(file);
      }}
    />
  );
}
