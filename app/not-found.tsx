import Link from "next/link";
import { AuthCard } from "@/components/auth-card";
import { buttonClass } from "@/components/ui";

export default function NotFound() {
  return (
    <AuthCard title="Not found" description="There is no such page, or you are not a member of that project.">
      <Link href="/" className={buttonClass("secondary")}>
        Go to your projects
      </Link>
    </AuthCard>
  );
}
