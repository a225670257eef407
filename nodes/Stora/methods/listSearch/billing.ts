// Billing resources' list searches (orders, invoices, subscriptions, price adjustments, ...).
export {};
