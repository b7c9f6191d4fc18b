// One part of one language's messages, as the build serves it (see message-parts.ts).
declare module 'virtual:fairex-messages/*' {
  const messages: Record<string, unknown>;
  export default messages;
}
