// CRM resources' list searches (contacts, deals, opportunities, tasks, notes, ...).
export {};
