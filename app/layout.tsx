import type { Metadata } from "next";
import type { ReactNode } from "react";
import { TRPCProvider } from "@/components/trpc-provider";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Toolgate", template: "%s · Toolgate" },
  description: "Monitor for AI-agent tool calls: invalid requests, their cost, and whether the model recovered.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        {/* before the first paint: marks that scripts run, so CSS can keep for pages without them what only scripts can switch (components/page-sections.tsx) */}
        <script dangerouslySetInnerHTML={{ __html: "document.documentElement.classList.add('js')" }} />
      </head>
      <body className="min-h-screen text-sm">
        <TRPCProvider>{children}</TRPCProvider>
      </body>
    </html>
  );
}
