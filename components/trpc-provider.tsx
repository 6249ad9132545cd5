"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink, TRPCClientError } from "@trpc/client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import { useState, type ReactNode } from "react";
import type { AppRouter } from "@/server/routers/root";

const context = createTRPCContext<AppRouter>();

/** `const trpc = useTRPC(); useQuery(trpc.members.list.queryOptions({ project }))`. */
export const useTRPC = context.useTRPC;
export const useTRPCClient = context.useTRPCClient;

/** Client errors (4xx) will not change on a retry: only retry network trouble and 5xx. */
function shouldRetry(failureCount: number, error: unknown) {
  const status = error instanceof TRPCClientError ? (error.data as { httpStatus?: number } | undefined)?.httpStatus : undefined;
  if (status && status < 500) return false;
  return failureCount < 2;
}

function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 15_000, retry: shouldRetry },
      mutations: { retry: false },
    },
  });
}

export function TRPCProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  // no transformer: plain JSON, the same wire harnesses use with curl
  const [trpcClient] = useState(() => createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: "/api/trpc" })] }));
  return (
    <QueryClientProvider client={queryClient}>
      <context.TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </context.TRPCProvider>
    </QueryClientProvider>
  );
}
