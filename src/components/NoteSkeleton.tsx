/** Grey shapes in the card's layout, so the first notes replace it without a jump. */
export function NoteSkeleton() {
  return (
    <div className="note note-skeleton" aria-hidden="true">
      <div className="note-body">
        <span className="sk sk-avatar" />
        <div className="note-main">
          <span className="sk sk-line sk-short" />
          <span className="sk sk-line" />
          <span className="sk sk-line" />
          <span className="sk sk-line sk-mid" />
        </div>
      </div>
    </div>
  );
}

export function FeedSkeleton({ label }: { label: string }) {
  return (
    <div className="feed-skeleton" role="status">
      <span className="visually-hidden">{label}</span>
      {Array.from({ length: 5 }, (_, i) => (
        <NoteSkeleton key={i} />
      ))}
    </div>
  );
}
