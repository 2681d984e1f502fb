/** Leaves the app for another site (the gateway's hosted page): a full page load, not a route. */
export function leaveFor(url: string): void {
  window.location.assign(url);
}
