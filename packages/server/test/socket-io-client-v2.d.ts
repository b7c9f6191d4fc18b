// The socket.io v2 client (installed under an alias) ships no types; this is the part the tests use.
declare module 'socket.io-client-v2' {
  interface SocketV2 {
    connected: boolean;
    on(event: string, listener: (...args: unknown[]) => void): SocketV2;
    once(event: string, listener: (...args: unknown[]) => void): SocketV2;
    emit(event: string, ...args: unknown[]): SocketV2;
    close(): SocketV2;
  }
  function connect(url: string, options?: Record<string, unknown>): SocketV2;
  export default connect;
}
