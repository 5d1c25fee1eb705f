/** PRDs shared by the offline drafter's unit tests. */

export const THIN_PRD = "# Idea\n\nMake it fast and easy. TODO";

export const FULL_PRD = `# Team Expense Reports

## Problem
Finance teams at mid-size companies spend 6 hours a week chasing receipts by email. Managers approve expenses late because they have no single place to review them, and employees wait 14 days on average to be reimbursed.

## Goals and Success Metrics
- Cut reimbursement time from 14 days to 5 days within 2 quarters of launch.
- Reduce finance time spent on receipt follow-up by 50% by Q4.
- Reach 70% weekly active use among employees who submit expenses, 3 months after launch.

## Target Users
- **Employee**: submits receipts from a phone while travelling.
- **Manager**: approves or rejects expenses for a team of 5 to 20 people.
- **Finance admin**: exports approved reports to the accounting system each month.

## Requirements
- Must: Employees capture a receipt photo and the amount is read from the image.
- Must: Managers approve or reject a report with a comment.
- Must: Finance admins export approved reports as CSV for the accounting system.
- Should: Email reminders for reports pending approval for more than 3 days.
- Should: Per-category spending limits set by finance admins.
- Could: Integration with the corporate card provider API to import transactions.

### User Stories
As an employee, I want to photograph a receipt so that I do not keep paper copies.
- Given I am signed in, when I take a photo, then a draft expense shows the amount.

As a manager, I want to approve all my team's reports in one list so that approvals are not delayed.
Acceptance criteria:
- The list shows every pending report of my team.

## Technical Considerations
- Architecture: a web app and a mobile client on one REST API backend service.
- Data: expenses and receipts are stored in the existing Postgres database; images in object storage with a 7 year retention.
- Performance: receipt reading returns in under 3 seconds at p95; the list loads in 500 ms.
- Security: SSO login, role-based permissions, encryption of receipt images at rest.
- Dependencies: an OCR library and the accounting system's import format.
- Availability: 99.9% uptime; monitoring and daily backups.

## Scope and Non-Goals
- In scope: receipts, approvals, CSV export.
- Non-goal: corporate card issuing.

## Risks
- OCR misreads amounts on crumpled receipts. Mitigation: employees confirm the amount before submitting.
- Managers ignore reminders. Mitigation: escalate to finance after 7 days.
- Accounting import format changes. Mitigation: version the export and test it monthly with finance.

## Open Questions
- Which accounting systems besides CSV import do customers need first?
- Do we support multiple currencies in the first release?

## Assumptions
- Employees have a smartphone with a camera.
`;

/** A good PRD that still trips the writing rules (for suggestions). */
export const MESSY_PRD = `# Checkout Revamp

## Problem
Shoppers abandon the cart because checkout is slow and confusing on many devices.

## Goals
- Make checkout fast
- Increase conversion by 10% within 6 months

## Requirements
- As a shopper, I want to save my card so that I check out quickly.
- As a shopper, I want to pay with a wallet.

## Open Questions
- TBD: which payment provider?
`;
