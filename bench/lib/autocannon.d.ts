// The part of autocannon 9's library API the bench uses (the package ships no types).
declare module 'autocannon' {
  export interface Options {
    url: string;
    connections?: number;
    duration?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    timeout?: number;
    requests?: Request[];
  }
  /** One entry of `requests`; setupRequest rebuilds it each time it is sent. */
  export interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    setupRequest?: (request: Request, context: Record<string, unknown>) => Request;
  }
  export interface Histogram {
    average: number;
    mean: number;
    max: number;
    min: number;
    total: number;
    p50: number;
    p90: number;
    p99: number;
  }
  export interface Result {
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    statusCodeStats: Record<string, { count: number }>;
    latency: Histogram;
    requests: Histogram & { sent: number };
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
