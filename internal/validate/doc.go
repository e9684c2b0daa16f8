// Package validate is the offline feeder of the check engine: it reads
// recordings and HAR files, groups their connections into logical
// sessions, and runs every frame through a check.Session in order.
package validate
