import { CreatedId, DataEnvelope, RatingSubmissionBody } from '@lobby/contracts';
import type { Answers } from '@lobby/contracts';
import { guestOf } from '../../../plugins/app/auth.ts';
import { DuplicateRow } from '../../../repositories/forms.ts';
import { checkAnswers } from '../../../services/formAnswers.ts';
import type { Services } from '../../../services/index.ts';
import type { App } from '../../../typebox.ts';
import { errors, fail } from '../../../http/errors.ts';
import { routes } from '../../../http/routes.ts';

/** The guest app's comment box (maxLength 1000): the same bound here. */
export const RATING_COMMENT_MAX = 1000;

/** Without a rating form the page is one stars/emojies score and an optional comment: `{score: 1..5, comment?}`. */
function checkPlainScore(answers: Answers): string | null {
  const extra = Object.keys(answers).find((k) => k !== 'score' && k !== 'comment');
  if (extra) return `answers.${extra}: only score and comment are accepted without a rating form`;
  const c = answers.comment;
  if (c !== undefined && (typeof c !== 'string' || c.length > RATING_COMMENT_MAX)) return `answers.comment: must be text of at most ${RATING_COMMENT_MAX} characters`;
  const s = answers.score;
  return typeof s === 'number' && Number.isInteger(s) && s >= 1 && s <= 5 ? null : 'answers.score: must be an integer from 1 to 5';
}

function ratingRoutes(app: App, services: Services): void {
  const { repos } = services;
  app.post(
    '/submissions',
    {
      schema: {
        tags: ['forms'],
        summary: "Rate a call (one rating per call), against the company's rating form or as a plain score",
        security: [{ guestBearer: [] }],
        body: RatingSubmissionBody,
        response: { 201: DataEnvelope(CreatedId), ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const guest = guestOf(request);
      const b = request.body;
      if (b.guestUsername !== guest.username) return fail(reply, 403, 'guestUsername: not the guest of your access_token');
      const report = await repos.callReports.byId(b.report);
      if (!report) return fail(reply, 404, 'report: no such call report');
      if (report.company_id !== guest.companyId || report.guest_username !== guest.username) return fail(reply, 403, 'report: not your call');
      // Only a call the company accepted and an agent answered is rated (not the browser's say alone).
      if (report.status !== 'ok') return fail(reply, 403, `report: the call was not accepted (${report.status})`);
      if (!(await repos.callReports.chainAnswered(guest.companyId, report.origin_call_id ?? report.call_id))) return fail(reply, 403, 'report: the call was not answered');
      // The form is the company's choice, as the guest app reads it: its rating form with advanceRating, else the plain score.
      const company = (await services.companySnapshots.get(guest.companyId))?.company;
      const required = company?.settings.advanceRating && company.settings.ratingForm ? company.settings.ratingForm.id : null;
      if (b.form !== required) return fail(reply, 400, required === null ? 'form: the company asks a plain score (form null)' : `form: the company asks its rating form ${required}`);
      let problem: string | null;
      if (b.form === null) {
        problem = checkPlainScore(b.answers as Answers);
      } else {
        const form = await repos.forms.byId(guest.companyId, b.form);
        if (!form) return fail(reply, 404, 'form: no such form in this company');
        if (form.kind !== 'rating') return fail(reply, 400, 'form: not a rating form');
        problem = checkAnswers(form.fields, b.answers as Answers);
      }
      if (problem) return fail(reply, 400, problem);
      try {
        const id = await repos.forms.addRating({
          companyId: guest.companyId,
          reportId: report.id,
          formId: b.form,
          guestUsername: guest.username,
          // Checked against the form above.
        answers: b.answers as Answers,
          now: services.now(),
        });
        return await reply.code(201).send({ data: { id } });
      } catch (err) {
        if (err instanceof DuplicateRow) return fail(reply, 409, 'report: this call is already rated');
        throw err;
      }
    },
  );
}

export default routes({ access: 'guest' }, ratingRoutes);
