/** A delivery's status (webhooks, scheduled exports) as a coloured badge. */
const BADGE = { delivered: "badge-success", failed: "badge-danger", pending: "badge-warning" } as const;

export function DeliveryStatus({ status }: { status: keyof typeof BADGE }) {
  return <span className={`badge ${BADGE[status]}`}>{status}</span>;
}
