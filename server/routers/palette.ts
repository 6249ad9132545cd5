import { z } from "zod";
import { refuseUnstorable } from "../../contracts/text-limits";
import { lookupIds, paletteIndex } from "../services/search/palette";
import { projectProcedure, router } from "../trpc/init";

/** The command palette's reads: for any member of the project, as the pages it jumps to are. */
export const paletteRouter = router({
  /** Tools and model versions with calls in the last 30 days (and every registered tool), recent incidents, alert rules. */
  index: projectProcedure("viewer").query(({ ctx }) => paletteIndex(ctx.project.id)),
  /** Calls, runs and incidents whose id is the text or starts with it. */
  lookup: projectProcedure("viewer")
    .input(
      z.object({
        text: z
          .string()
          .trim()
          .min(1, "Type at least one character of the id.")
          .max(256, "Ids are at most 256 characters.")
          .superRefine(refuseUnstorable("the id")),
      }),
    )
    .query(({ ctx, input }) => lookupIds(ctx.project.id, input.text)),
});
